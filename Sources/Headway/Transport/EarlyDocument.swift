import Foundation

// A main document the handler fetches before WebKit asks for it: from the moment a page starts
// a typed navigation (`Page.load`, a replayed redirect) or `Browser.preload` names it, while
// WebKit's web process starts or gets ready. The first main-frame request for its URL with the
// same headers takes it; its body then streams to WebKit from where it is. Sent with the
// browser's cookies, its `Set-Cookie` headers are held until it is taken, so a document nobody
// shows leaves no cookie. Untaken, it is dropped after `SchemeHandler.requestTimeout` seconds.
@EngineActor
final class EarlyDocument {
    // The real URL, without a fragment.
    let url: URL
    // What the handler sent, before libsoup's own headers.
    let headers: HeaderList
    // The page whose navigation started it, or nil for `Browser.preload`.
    private(set) weak var page: PageBooster?
    let bound: BoundedRequest
    // When it started.
    let started = Engine.now()
    // The fetch, which sets `result`.
    var fetch: Task<Void, Never>?
    // The response once its headers came, or the error; nil when it was not fetched after all
    // (the disk cache had the document) or was cancelled.
    var result: Result<SoupClient.Response, any Error>?
    private var expiry: EngineDeadline?

    init(url: URL, headers: HeaderList, page: PageBooster?, bound: BoundedRequest,
         onExpiry: @escaping @EngineActor () -> Void) {
        self.url = url
        self.headers = headers
        self.page = page
        self.bound = bound
        expiry = EngineDeadline(after: bound.timeout, onExpiry)
    }

    // The key of `url`'s document: WebKit asks for it without the fragment.
    static func key(_ url: URL) -> URL {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false), parts.fragment != nil else {
            return url
        }
        parts.fragment = nil
        return parts.url ?? url
    }

    // Whether a request with `headers` asks for what this sent (names compared without case).
    func matches(_ headers: HeaderList) -> Bool {
        func normal(_ list: HeaderList) -> [String] { list.map { "\($0.0.lowercased()): \($0.1)" }.sorted() }
        return normal(self.headers) == normal(headers)
    }

    // Taken by a request: it no longer expires.
    func taken() {
        expiry?.cancel()
        expiry = nil
    }

    // Stops the fetch, or drops its response unread.
    func cancel() {
        taken()
        bound.cancel()
        fetch?.cancel()
        result = nil
    }
}
