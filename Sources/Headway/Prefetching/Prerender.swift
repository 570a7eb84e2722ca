import CWebKit
import Foundation

// One page the booster loads ahead in a hidden web view, for a navigation to swap in. It is
// discarded (its web process ended) when it fails, navigates on its own, opens a dialog or a
// window, asks for credentials, or its web process ends: a hidden page may not act.
@EngineActor
final class Prerender {
    enum State { case loading, ready, discarded }

    // The real (not mirrored) URL it shows.
    let url: URL
    private(set) var state = State.loading
    // When its load finished, on the engine clock (ms).
    private(set) var readyAt: ContinuousClock.Instant?
    private var parts: WebViewParts?
    // The booster's state for the hidden view, which goes with the view to the page that shows it.
    private var booster: PageBooster?
    private var signals: SignalConnections?
    private var starts = 0
    private var changeWaiters: [@EngineActor () -> Void] = []
    // Ends the page when it is still loading after the pool's load timeout.
    private var loadDeadline: EngineDeadline?

    init(url: URL, browser: Browser, loadTimeout: Duration) {
        self.url = url
        let parts = WebViewParts(browser: browser)
        self.parts = parts
        booster = PageBooster(view: parts.view.pointer, owner: self)
        signals = PrerenderSignals.connect(parts.view, target: Weak(self))
        webkit_web_view_load_uri(parts.view.pointer, MirrorScheme.mirror(url).absoluteString)
        loadDeadline = EngineDeadline(after: loadTimeout) { [weak self] in
            if let self, self.state == .loading { self.discard() }
        }
    }

    // The view's parts and the booster's state for it, for a page that shows it now; the
    // prerender is over.
    func hand() -> (parts: WebViewParts, booster: PageBooster)? {
        guard state == .ready, let parts, let booster else { return nil }
        signals?.disconnectAll()
        signals = nil
        self.parts = nil
        self.booster = nil
        end(.discarded)
        return (parts, booster)
    }

    // Ends the hidden page and its web process. From a signal of the view itself the view is
    // destroyed on the next turn, not inside WebKit's emission.
    func discard(deferred: Bool = false) {
        guard state != .discarded else { return }
        signals?.disconnectAll()
        signals = nil
        let parts = self.parts
        let booster = self.booster
        self.parts = nil
        self.booster = nil
        // The handler stops the view's fetches.
        booster?.cancelOpenFetches(mainFrameOnly: false)
        end(.discarded)
        if deferred {
            Task { @EngineActor in
                parts?.destroy()
                // Requests of this last turn may have opened fetches for the view.
                booster?.cancelOpenFetches(mainFrameOnly: false)
            }
        } else {
            parts?.destroy()
        }
    }

    // Calls `body` when the state next changes (at once when it is no longer loading).
    func whenSettled(_ body: @escaping @EngineActor () -> Void) {
        if state != .loading { body() } else { changeWaiters.append(body) }
    }

    private func end(_ next: State) {
        state = next
        loadDeadline?.cancel()
        loadDeadline = nil
        let waiters = changeWaiters
        changeWaiters.removeAll()
        for waiter in waiters { waiter() }
    }

    // MARK: Signals

    func loadStarted() {
        starts += 1
        if starts > 1 { discard(deferred: true) }
    }

    func loadFinished() {
        guard state == .loading else { return }
        readyAt = Engine.now()
        end(.ready)
    }
}

// A hidden page may not act: a request that could is refused, and its redirect ends it.
extension Prerender: BoostedView {
    var navigationGeneration: Int? { nil }

    func followMainFrameRedirect(to target: URL) {
        // The navigation will follow the redirect: a hidden page that redirects is not shown.
        discard(deferred: true)
    }

    func refusesAction() -> Bool {
        guard state != .discarded else { return false }
        discard(deferred: true)
        return true
    }
}
