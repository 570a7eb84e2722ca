import Foundation
import Headway

// Warm browsers for New Session: each one a fresh Browser (its own ephemeral web context, so
// nothing of an earlier session is in it) with a page that has loaded about:blank, so its web
// process is up. Only sessions with the server's browser configuration take one; a taken browser
// is replaced in the background, after the command that took it has answered, and a session's
// browser is never given back (a reused web context keeps what WebKit cannot clear: docs/performance.md).
//
// The pool keeps `size` browsers warm, and more, up to `ceiling`, while sessions come faster
// than it refills: each New Session that finds it empty keeps one more warm, until no session
// has found it empty for `shrinkAfter`.
@EngineActor
package final class SessionPool {
    package let size: Int
    package let ceiling: Int
    // What every warm browser is made with: `HeadwayOptions.sessionDefault`, with the server's
    // compositing choice (`headway webdriver --no-compositing`).
    package let configuration: Browser.Configuration
    // How many browsers the pool keeps warm now: `size`, or more after sessions found it empty.
    package private(set) var target: Int
    private var warm: [(browser: Browser, page: Page)] = []
    private var starting = 0
    private var closed = false
    // After a browser that failed to start, the pool waits for the next take before it retries.
    private var failed = false
    // A permit for each browser that finished warming (or failed to): New Session takes one before
    // it takes a browser from `warm`, waiting for one (at most one waiter per browser warming).
    // A failed start's permit finds `warm` empty: that session starts a fresh browser.
    private let finished = AsyncSemaphore(permits: 0)
    // The last New Session that found no warm browser, and the task that brings `target` back
    // to `size` once none has for `shrinkAfter`.
    private var lastShortage = ContinuousClock.now
    private var shrinking: Task<Void, Never>?
    package var shrinkAfter: Duration = .seconds(30)
    // Whether no session runs a command now or ran one in the last `quietGap`: a refill waits
    // for that (at most `quietWait`), so that making a browser (and its web process starting)
    // rarely holds up a command. A client sends a session's commands back to back, so the gap
    // right after New Session (before its first navigation) is not quiet; the time after Delete
    // Session, or a pause in a test, is.
    package var isQuiet: @EngineActor () -> Bool = { true }
    package static let quietGap: Duration = .milliseconds(200)
    package static let quietWait: Duration = .seconds(1)

    // `size` warm browsers, up to `ceiling` (at least `size`) while sessions come faster.
    package init(size: Int, ceiling: Int? = nil, configuration: Browser.Configuration = HeadwayOptions.sessionDefault) {
        self.size = max(0, size)
        self.configuration = configuration
        self.ceiling = max(self.size, ceiling ?? self.size)
        target = self.size
    }

    // Warm browsers ready now.
    package var ready: Int { warm.count }

    // Whether a session with `capabilities` may run in a pooled browser: the pool's configuration
    // (timeouts, page load strategy and prompt behaviour are the session's own, not the browser's);
    // "headway:options" may only say "compositing", as the pool's browsers are.
    package func fits(_ capabilities: Capabilities) -> Bool {
        let asked = capabilities.configuration
        return capabilities.options.raw.keys.allSatisfy { $0 == "compositing" }
            && asked.acceleratedCompositing == configuration.acceleratedCompositing
            && asked.proxy == nil && !asked.ignoreTLSErrors
    }

    // A warm browser and its page for `capabilities`, or nil (start a fresh one). With none
    // ready but one warming, waits for that one: it is further along than a fresh start, and a
    // fresh start beside it would only slow both.
    package func take(for capabilities: Capabilities) async -> (browser: Browser, page: Page)? {
        guard fits(capabilities), size > 0 else { return nil }
        failed = false
        defer { refill() }
        if !finished.tryWait() {
            grow()
            guard !closed, starting > finished.waiting else { return nil }
            // Cancelled (the client went away) or closed (shutdown): none.
            do { try await finished.wait() } catch { return nil }
        }
        return warm.isEmpty ? nil : warm.removeFirst()
    }

    // Starts warming browsers until `target` are ready or on their way. Each starts in a task of
    // its own, after the current command has answered and once the sessions are quiet (or a
    // second passed, or no browser is ready): only the web context's and the page's creation
    // hold the engine thread, each in a job of its own; the web and network processes' start
    // and the about:blank load do not.
    package func refill() {
        while !closed, !failed, warm.count + starting < target {
            starting += 1
            Task { @EngineActor in
                await Task.yield()
                let deadline = ContinuousClock.now + Self.quietWait
                while !closed, !warm.isEmpty, !isQuiet(), ContinuousClock.now < deadline {
                    try? await Task.sleep(for: .milliseconds(10))
                }
                // Closed meanwhile (a server that could not listen): start no engine for nothing.
                let item = closed ? nil : try? await Self.open(configuration)
                starting -= 1
                if item == nil { failed = true }
                if let item, closed {
                    Self.end(item)
                } else if let item, warm.count >= target, finished.waiting == 0 {
                    // The pool shrank while it warmed.
                    Self.end(item)
                } else {
                    if let item { warm.append(item) }
                    finished.signal()
                }
            }
        }
    }

    // A browser for a session and its first page, which has opened about:blank, so that its web
    // process is up and a screenshot or a script before the first navigation finds a document.
    // The browser is closed again if the page cannot open. Commands waiting for the engine
    // thread run between the web context's creation and the page's.
    package static func open(_ configuration: Browser.Configuration) async throws -> (browser: Browser, page: Page) {
        let browser = try Browser(configuration: configuration)
        do {
            await Task.yield()
            let page = try browser.newPage()
            try await page.load(URL(string: "about:blank")!, until: .domContentLoaded, timeout: .seconds(30))
            return (browser, page)
        } catch {
            browser.close()
            throw error
        }
    }

    // One more browser kept warm (up to `ceiling`): a New Session found none.
    private func grow() {
        lastShortage = .now
        guard target < ceiling else { return }
        target += 1
        guard shrinking == nil else { return }
        shrinking = Task { @EngineActor [weak self] in
            // Checked at least every second, so that a shorter `shrinkAfter` counts.
            while let wait = self?.shrinkWait() { try? await Task.sleep(for: min(wait, .seconds(1))) }
        }
    }

    // How long until the pool may keep only `size` warm again, or nil once it does (the extra
    // warm browsers closed) or is closed.
    private func shrinkWait() -> Duration? {
        guard !closed, target > size else {
            shrinking = nil
            return nil
        }
        let since = lastShortage.duration(to: .now)
        if since < shrinkAfter { return shrinkAfter - since }
        target = size
        // Each warm browser holds a permit: the one closed takes its permit along.
        while warm.count > target, finished.tryWait() { Self.end(warm.removeLast()) }
        shrinking = nil
        return nil
    }

    private static func end(_ item: (browser: Browser, page: Page)) {
        item.page.close()
        item.browser.close()
    }

    // Closes the warm browsers and warms no more; one still starting is closed as it comes.
    package func close() {
        closed = true
        shrinking?.cancel()
        for item in warm { Self.end(item) }
        warm.removeAll()
        finished.close(throwing: CancellationError())
    }

    // Waits (bounded) until `target` browsers are warm: for tests and measurements.
    package func waitUntilFull(timeout: Duration = .seconds(60)) async {
        let deadline = ContinuousClock.now + timeout
        while warm.count < target, !closed, !failed, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
    }
}
