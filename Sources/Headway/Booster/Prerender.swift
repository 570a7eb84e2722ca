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
    private(set) var readyAt: Double?
    private var parts: WebViewParts?
    private var signals: SignalConnections?
    private var starts = 0
    private var changeWaiters: [@EngineActor () -> Void] = []
    // Called with the view before it is destroyed, so the handler stops its fetches.
    var onDestroy: ((UnsafeMutablePointer<WebKitWebView>) -> Void)?

    init(url: URL, browser: Browser) {
        self.url = url
        let parts = WebViewParts(browser: browser)
        self.parts = parts
        signals = PrerenderSignals.connect(parts.view, target: WeakPrerender(self))
        webkit_web_view_load_uri(parts.view.pointer, MirrorScheme.mirror(url).absoluteString)
    }

    var view: UnsafeMutablePointer<WebKitWebView>? { parts?.view.pointer }

    // The view's parts, for a page that shows it now; the prerender is over.
    func hand() -> WebViewParts? {
        guard state == .ready, let parts else { return nil }
        signals?.disconnectAll()
        signals = nil
        self.parts = nil
        end(.discarded)
        return parts
    }

    // Ends the hidden page and its web process. From a signal of the view itself the view is
    // destroyed on the next turn, not inside WebKit's emission.
    func discard(deferred: Bool = false) {
        guard state != .discarded else { return }
        signals?.disconnectAll()
        signals = nil
        let parts = self.parts
        self.parts = nil
        if let view = parts?.view.pointer { onDestroy?(view) }
        end(.discarded)
        if deferred {
            Task { @EngineActor [onDestroy] in
                parts?.destroy()
                // Requests of this last turn may have counted again under the view.
                if let view = parts?.view.pointer { onDestroy?(view) }
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

// A weak reference to a prerender, the user data of its signal handlers.
@EngineActor
final class WeakPrerender {
    weak var prerender: Prerender?
    init(_ prerender: Prerender) { self.prerender = prerender }
}
