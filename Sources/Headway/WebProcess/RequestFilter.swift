public import Foundation

/// A request a page is about to send, as `Browser.Configuration.requestFilter` sees it.
public struct FilteredRequest: Sendable, Equatable {
    /// The URL it goes to (mirror schemes made http(s) again).
    public var url: URL
    /// The request method.
    public var method: String
    /// The URL of the page that makes it, or nil when WebKit did not say.
    public var page: URL?

    /// A request to `url` with `method`, made by `page`.
    public init(url: URL, method: String, page: URL?) {
        self.url = url
        self.method = method
        self.page = page
    }
}

/// What a request filter decides for a request.
public enum RequestDecision: Sendable, Equatable {
    /// Send it.
    case allow
    /// Keep it off the network; the load counts it in `ResourceSummary.blocked`, and a blocked
    /// main document fails the load with `.blockedURL`.
    case block
}
