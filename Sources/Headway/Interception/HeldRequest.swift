public import Foundation

/// A request a page is about to send, held for the page's interceptor
/// (`Page.setRequestInterceptor(_:)`) until it decides.
public struct HeldRequest: Sendable, Equatable {
    /// The URL it goes to (mirror schemes made http(s) again).
    public var url: URL
    /// The request method.
    public var method: String
    /// Its headers as the page sends them (WebKit adds `User-Agent`, `Cookie` and
    /// `Accept-Encoding` after this point).
    public var headers: [ResourceEntry.Header]
    /// The URL of the page's document when it was sent, or nil when WebKit did not say.
    public var page: URL?
}

/// What an interceptor decides for a held request.
public enum HeldRequestDecision: Sendable, Equatable {
    /// Send it as it is.
    case proceed
    /// Send it to `url` when set, with exactly `headers` when set. The method and body cannot
    /// change: WebKit's request gives no way to.
    case change(url: URL?, headers: [ResourceEntry.Header]?)
    /// Keep it off the network: the page sees a network error (as with a blocked URL).
    case fail
    /// Answer it with `response`, sent nowhere. The page sees the response under a URL of
    /// Headway's own (`headway-response:`); resource reports give the URL it asked for.
    case respond(HeldResponse)
}

/// A response an interceptor gives a held request.
public struct HeldResponse: Sendable, Equatable {
    /// The HTTP status, 100-599.
    public var status: Int
    /// The reason phrase, or nil for the status's usual one.
    public var reason: String?
    /// The response's headers.
    public var headers: [ResourceEntry.Header]
    /// The response's body.
    public var body: Data

    /// A response with `status`, `headers` and `body`.
    public init(status: Int = 200, reason: String? = nil, headers: [ResourceEntry.Header] = [], body: Data = Data()) {
        self.status = status
        self.reason = reason
        self.headers = headers
        self.body = body
    }
}

/// Decides for each request a page (the first argument: the page that set it, or a popup it
/// opened, which starts with its opener's) is about to send; the request waits, and so does the
/// page's main thread, until it returns, at most `Limits.heldRequest`: then the interceptor's
/// task is cancelled and the request goes as it is. A URL that is not http(s), and headers that
/// are not valid (a name that is not a token, CR, LF or NUL in a value), are not applied; a
/// status is brought into 100-599.
public typealias RequestInterceptor = @Sendable @EngineActor (Page, HeldRequest) async -> HeldRequestDecision
