import CWebKit
import Foundation

// A browser's request interception: which of its pages intercept (read by the filter server's
// thread, so under a lock), the held requests' decisions, and the responses given to some of
// them, served on the `headway-response` scheme.
final class Interception: @unchecked Sendable {
    private let lock = NSLock()
    private var intercepting = 0
    // The browser, once made; only touched on the engine thread.
    nonisolated(unsafe) weak var browser: Browser?

    // Whether any page intercepts now: the filter server holds requests only then.
    var isActive: Bool {
        lock.lock()
        defer { lock.unlock() }
        return intercepting > 0
    }

    func pageStarts() { change(+1) }
    func pageStops() { change(-1) }

    private func change(_ delta: Int) {
        lock.lock()
        intercepting = max(0, intercepting + delta)
        lock.unlock()
    }

    // Asks the interceptor of the question's page, on the engine thread, and replies once: with
    // its decision, or `allow` after `Limits.heldRequest`.
    func hold(_ question: ExtensionQuestion, reply: @escaping @Sendable (ExtensionAnswer) -> Void) {
        let once = ReplyOnce(reply)
        let timer = Task {
            // Cancelled once the decision came: then it sends nothing.
            guard (try? await Task.sleep(for: Limits.heldRequest)) != nil else { return }
            once.send(.allow)
        }
        Task { @EngineActor [weak self] in
            let answer = await self?.browser?.decide(question) ?? .allow
            timer.cancel()
            once.send(answer)
        }
    }
}

// A reply that goes out once, whichever of its senders comes first.
private final class ReplyOnce: @unchecked Sendable {
    private let lock = NSLock()
    private var reply: (@Sendable (ExtensionAnswer) -> Void)?

    init(_ reply: @escaping @Sendable (ExtensionAnswer) -> Void) { self.reply = reply }

    func send(_ answer: ExtensionAnswer) {
        lock.lock()
        let reply = self.reply
        self.reply = nil
        lock.unlock()
        reply?(answer)
    }
}

extension Browser {
    // The decision for a held request of one of this browser's pages.
    func decide(_ question: ExtensionQuestion) async -> ExtensionAnswer {
        guard let page = openPages.first(where: { $0.pageID == question.pageID }),
              let interceptor = page.requestInterceptor else { return .allow }
        let held = HeldRequest(url: question.url, method: question.method, headers: question.headers,
                               page: question.page)
        // While it waits, the page's main thread does too: no probe takes that for a stuck page.
        page.heldRequests += 1
        let decision = await interceptor(held)
        page.heldRequests -= 1
        switch decision {
        case .proceed: return .allow
        case .fail: return .block
        case .change(let url, let headers):
            return url == nil && headers == nil ? .allow : .change(url: url, headers: headers)
        case .respond(let response):
            guard let provided else { return .allow }
            return .change(url: provided.add(response, for: question.url), headers: nil)
        }
    }
}

extension Page {
    // WebKit's id of the page's view, which the extension's questions name.
    var pageID: UInt64? { view.map { UInt64(webkit_web_view_get_page_id($0.pointer)) } }

    /// Holds each request this page is about to send until `interceptor` decides what becomes of
    /// it (nil: requests go as they are again). Requests already held still get their decision.
    /// A held request waits at most `Limits.heldRequest`, then goes as it is; while it waits,
    /// the page's main thread waits with it, so its scripts, and commands run in it, wait too.
    ///
    /// Throws `.invalidArgument` unless the browser allows it
    /// (`Browser.Configuration.allowsRequestInterception`), and `.closed` once the page closed.
    public func setRequestInterceptor(_ interceptor: RequestInterceptor?) throws {
        guard !isClosed else { throw HeadwayError(.closed, "the page is closed") }
        guard let interception = browser?.interception else {
            throw HeadwayError(.invalidArgument, "request interception needs "
                               + "Browser.Configuration.allowsRequestInterception")
        }
        switch (requestInterceptor != nil, interceptor != nil) {
        case (false, true): interception.pageStarts()
        case (true, false): interception.pageStops()
        default: break
        }
        requestInterceptor = interceptor
    }

    // The page closes: its requests are no longer held.
    func stopIntercepting() {
        if requestInterceptor != nil { browser?.interception?.pageStops() }
        requestInterceptor = nil
    }
}
