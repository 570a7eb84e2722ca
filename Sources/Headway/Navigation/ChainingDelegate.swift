import Foundation

// Headway's internal navigation delegate. It does Headway's own work for each callback
// (phase timing, the navigation tracker, the event stream) and then forwards the same
// callback, in the same order, to the user's delegate. For policy decisions the user's
// non-nil answer wins over Headway's.
@EngineActor
final class ChainingDelegate: NavigationDelegate {
    weak var user: (any NavigationDelegate)?
    private unowned let tracker: NavigationTracker
    private let emit: (PageEvent) -> Void

    init(tracker: NavigationTracker, emit: @escaping (PageEvent) -> Void) {
        self.tracker = tracker
        self.emit = emit
    }

    func page(_ page: Page, didStartNavigation url: URL) {
        if let target = tracker.started(url) {
            // A client (or replayed) redirect: the load goes on at the target.
            reportRedirect(page, to: target)
            return
        }
        let started = tracker.current?.finalURL ?? url
        // A navigation the page started itself: measured and recorded even if nobody follows it.
        if let record = tracker.current, record.requested == nil, !record.isFollowed, !record.isObserved {
            page.observe(record)
        }
        emit(.navigationStarted(started))
        user?.page(page, didStartNavigation: started)
    }

    func page(_ page: Page, didRedirectNavigation url: URL) {
        tracker.redirected(url)
        reportRedirect(page, to: url)
    }

    private func reportRedirect(_ page: Page, to url: URL) {
        emit(.navigationRedirected(url))
        user?.page(page, didRedirectNavigation: url)
    }

    func page(_ page: Page, didCommitNavigation url: URL) {
        page.endedWebProcess = nil
        tracker.committed(url)
        emit(.navigationCommitted(url))
        user?.page(page, didCommitNavigation: url)
    }

    func page(_ page: Page, didFinishNavigation url: URL) {
        guard tracker.finished(url) else { return }
        emit(.navigationFinished(url))
        user?.page(page, didFinishNavigation: url)
        page.booster?.pageFinished(page)
    }

    func page(_ page: Page, didFailNavigation url: URL?, error: HeadwayError) {
        guard tracker.failed(url, error) else { return }
        // A response that is no page fails with the reason found at its policy decision.
        let reported = tracker.current?.error.flatMap { $0.code == .notAPage ? $0 : nil } ?? error
        emit(.navigationFailed(url, reported))
        user?.page(page, didFailNavigation: url, error: reported)
    }

    func page(_ page: Page, didNavigateWithinDocument url: URL) {
        user?.page(page, didNavigateWithinDocument: url)
    }

    func page(_ page: Page, didLoad result: LoadResult) {
        user?.page(page, didLoad: result)
    }

    func page(_ page: Page, didRecordFilmstrip result: LoadResult) {
        user?.page(page, didRecordFilmstrip: result)
    }

    func page(_ page: Page, decidePolicyFor action: NavigationAction) -> NavigationPolicy? {
        let answer = user?.page(page, decidePolicyFor: action)
        if answer == .cancel, action.kind == .navigation {
            tracker.cancelledByPolicy(action.url)
        }
        if answer != .cancel, action.kind == .navigation { tracker.policyAllowedNavigation(action.url) }
        return answer
    }

    // What to do with a navigation WebKit asks about, `requested` being its URL as WebKit has it
    // and `shown` the view's (mirror URLs under the booster):
    // the delegates decide. (Under the booster, the web-process extension brings an absolute
    // link to an eligible host into the mirror scheme when its document is requested, so a
    // frame's navigation stays the frame's.) An absolute link to a fragment of the page shown
    // is one exception: to WebKit its scheme makes it another page, so it is taken as the
    // mirror URL, which scrolls the page as on the real web instead of reloading it.
    func decide(_ page: Page, _ action: NavigationAction, requested: URL, shown: URL?) -> PolicyDecision {
        if action.kind == .navigation, action.method == "GET", page.booster != nil, !MirrorScheme.isMirror(requested),
           requested.fragment != nil,
           let shown, MirrorScheme.isMirror(shown),
           Self.withoutFragment(MirrorScheme.real(shown)) == Self.withoutFragment(requested) {
            return .load(MirrorScheme.mirror(requested))
        }
        switch self.page(page, decidePolicyFor: action) {
        case .cancel?: return .ignore
        case .allow?: return .use
        case nil: return .webKitDefault
        }
    }

    func page(_ page: Page, didStartLoadingResource url: URL, method: String) {
        user?.page(page, didStartLoadingResource: url, method: method)
    }

    func page(_ page: Page, didLoadDOMContent url: URL?) {
        user?.page(page, didLoadDOMContent: url)
    }

    func page(_ page: Page, didOpenDialog dialog: JavaScriptDialog) {
        user?.page(page, didOpenDialog: dialog)
    }

    func page(_ page: Page, didOpenFileChooser chooser: FileChooser) {
        user?.page(page, didOpenFileChooser: chooser)
    }

    func page(_ page: Page, didPostMessage data: JSONValue) {
        user?.page(page, didPostMessage: data)
    }

    func page(_ page: Page, didSendRequest request: ResourceRequest) {
        user?.page(page, didSendRequest: request)
    }

    func page(_ page: Page, didReceiveResponse request: ResourceRequest) {
        user?.page(page, didReceiveResponse: request)
    }

    func page(_ page: Page, didEndRequest request: ResourceRequest) {
        user?.page(page, didEndRequest: request)
    }

    func page(_ page: Page, webProcessDidTerminate reason: WebProcessTermination) {
        page.endedWebProcess = reason
        let what = switch reason {
        case .crashed: "crashed"
        case .exceededMemoryLimit: "used more memory than its limit"
            + (page.browser?.memoryLimit.map { " (\($0) MB)" } ?? "") + " and was killed"
        case .terminatedByAPI: "was terminated (by Page.terminateWebProcess, or by Headway after a timeout)"
        }
        let during = tracker.current.flatMap { $0.isDone ? nil : $0.requested ?? $0.finalURL }
        tracker.webProcessEnded(HeadwayError(.engine, "the page's web process \(what)"
            + (during.map { " while loading \($0.absoluteString)" } ?? "") + "; the next load starts a fresh one"))
        emit(.webProcessTerminated(reason))
        user?.page(page, webProcessDidTerminate: reason)
    }

    // A request of the page failed with WebKit's internal error: the network process ended. A
    // load in flight fails with `.engine`, even when its own document had arrived.
    func page(_ page: Page, networkProcessFailed request: URL, _ info: HeadwayError.GErrorInfo) {
        guard let current = tracker.live else { return }
        let what = (current.requested ?? current.finalURL ?? request).absoluteString
        let error = HeadwayError(.engine, "WebKit's network process ended (crashed or was killed) "
            + "while loading \(what) (the request for \(request.absoluteString) failed); "
            + "the next load starts a fresh one", gerror: info)
        self.page(page, didFailNavigation: current.finalURL ?? current.requested, error: error)
    }

    private static func withoutFragment(_ url: URL) -> URL? {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        components?.fragment = nil
        return components?.url
    }
}

// A policy decision as the signal handler applies it to WebKit.
enum PolicyDecision: Equatable {
    case use, ignore, webKitDefault
    /// Ignore this navigation and load `URL` in its place.
    case load(URL)
}
