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
    // its decision, or `allow` after `Limits.heldRequest`, when the interceptor is cancelled.
    func hold(_ question: ExtensionQuestion, reply: @escaping @Sendable (ExtensionAnswer) -> Void) {
        let once = ReplyOnce(reply)
        let decision = TaskSlot()
        let timer = Task {
            // Cancelled once the decision came: then it sends nothing.
            guard (try? await Task.sleep(for: Limits.heldRequest)) != nil else { return }
            if once.send(.allow) { decision.cancel() }
        }
        decision.set(Task { @EngineActor [weak self] in
            let answer = await self?.browser?.decide(question) ?? .allow
            if once.send(answer) { timer.cancel() }
        })
    }
}

// The decision's task, which the timer cancels; set right after both are made.
private final class TaskSlot: @unchecked Sendable {
    private let lock = NSLock()
    private var task: Task<Void, Never>?
    private var cancelled = false

    func set(_ task: Task<Void, Never>) {
        lock.lock()
        self.task = task
        let cancel = cancelled
        lock.unlock()
        if cancel { task.cancel() }
    }

    func cancel() {
        lock.lock()
        cancelled = true
        let task = self.task
        lock.unlock()
        task?.cancel()
    }
}

// A reply that goes out once, whichever of its senders comes first.
private final class ReplyOnce: @unchecked Sendable {
    private let lock = NSLock()
    private var reply: (@Sendable (ExtensionAnswer) -> Void)?

    init(_ reply: @escaping @Sendable (ExtensionAnswer) -> Void) { self.reply = reply }

    // Sends `answer` unless an answer went already; returns whether it went.
    @discardableResult
    func send(_ answer: ExtensionAnswer) -> Bool {
        lock.lock()
        let reply = self.reply
        self.reply = nil
        lock.unlock()
        reply?(answer)
        return reply != nil
    }
}

extension Browser {
    // The decision for a held request of one of this browser's pages. What an interceptor gives
    // is checked first: a URL that is not http(s) is not followed, a header whose name is not a
    // token or whose value holds CR, LF or NUL is left out, and a status goes into 100-599.
    func decide(_ question: ExtensionQuestion) async -> ExtensionAnswer {
        guard let page = openPages.first(where: { $0.pageID == question.pageID }),
              let interceptor = page.requestInterceptor else { return .allow }
        let held = HeldRequest(url: question.url, method: question.method, headers: question.headers,
                               page: question.page)
        // While it waits, the page's main thread does too: no probe takes that for a stuck page.
        page.heldRequests += 1
        let decision = await interceptor(page, held)
        page.heldRequests -= 1
        switch decision {
        case .proceed: return .allow
        case .fail: return .block
        case .change(let url, let headers):
            let target = url.flatMap { ["http", "https"].contains($0.scheme?.lowercased() ?? "") ? $0 : nil }
            let valid = headers.map { $0.filter(Self.isValid) }
            return target == nil && valid == nil ? .allow : .change(url: target, headers: valid)
        case .respond(var response):
            guard let provided else { return .allow }
            response.status = min(599, max(100, response.status))
            response.headers = response.headers.filter(Self.isValid)
            return .change(url: provided.add(response, for: question.url), headers: nil)
        }
    }

    private static func isValid(_ header: ResourceEntry.Header) -> Bool {
        !header.name.isEmpty && header.name.utf8.allSatisfy(isTokenByte)
            && !header.value.unicodeScalars.contains { $0 == "\r" || $0 == "\n" || $0 == "\0" }
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
    /// (`Browser.Configuration.allowsRequestInterception`), `.engine` when the web-process
    /// extension that holds the requests was not found, and `.closed` once the page closed.
    public func setRequestInterceptor(_ interceptor: RequestInterceptor?) throws {
        guard !isClosed else { throw HeadwayError(.closed, "the page is closed") }
        guard let browser, let interception = browser.interception else {
            throw HeadwayError(.invalidArgument, "request interception needs "
                               + "Browser.Configuration.allowsRequestInterception")
        }
        guard browser.hasWebExtension else {
            throw HeadwayError(.engine, "request interception needs the web-process extension "
                               + "\(WebExtension.libraryName), which was not found: ship the "
                               + "Headway_Headway.resources folder beside the executable or set HEADWAY_WEB_EXTENSION")
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
