import CWebKit
import Foundation

extension Page {
    // The view the booster prerendered for `url`, if one is ready and this page may show it:
    // a page whose `addInitScript` scripts the hidden load never ran loads normally.
    func takePrerender(of url: URL) -> (parts: WebViewParts, booster: PageBooster)? {
        guard addedInitScripts.isEmpty, let booster, booster.hasPrerender(of: url) else { return nil }
        // The user's delegate decides as for any navigation; one it cancels loads (and is
        // cancelled) the normal way.
        let action = NavigationAction(kind: .navigation, url: url, method: "GET", isUserGesture: false)
        guard delegate?.page(self, decidePolicyFor: action) != .cancel else { return nil }
        return booster.takePrerender(of: url)?.hand()
    }

    // Shows `parts`, a hidden view that already loaded `url`, in place of this page's view, as a
    // navigation to `url`: the delegate sees it start, commit and finish, `started`,
    // `committed` and `finished` are when it was shown, and Navigation Timing is the hidden
    // load's. The view being left ends as `close()` ends it.
    func show(_ prerendered: (parts: WebViewParts, booster: PageBooster), for url: URL, timeout: Duration,
              condition: LoadCondition) async throws -> LoadResult {
        guard !Task.isCancelled else {
            booster?.pageClosed(prerendered.booster)
            prerendered.parts.destroy()
            throw CancellationError()
        }
        let started = Engine.now()
        clearPageRecords()
        if let booster, view != nil { booster.showsPrerender(of: url, replacing: pageBooster) }
        let record = tracker.begin(url, until: condition)
        network.reset()
        let size = viewportSize
        adopt(prerendered.parts, booster: prerendered.booster)
        // The result, `latestLoad` and the delegate's `didLoad` all say so; a later load the page
        // starts itself (whose notes are not reset) does not.
        prerendered.booster.stats.prerendered = true
        prerendered.booster.stats.hit = true
        defer {
            prerendered.booster.stats.prerendered = false
            prerendered.booster.stats.hit = false
        }
        chain.page(self, didStartNavigation: url)
        chain.page(self, didCommitNavigation: url)
        refreshState()
        chain.page(self, didFinishNavigation: url)
        var result = try await finish(record, timeout: timeout)
        // The hidden view has the configured viewport; the page keeps the one it was given.
        if viewportSize != size { try await setViewportSize(width: size.width, height: size.height) }
        guard condition == .networkIdle else { return result }
        try await waitForNetworkIdle(timeout: (timeout.clamped - started.duration(to: Engine.now())).clamped)
        if browser?.configuration.recordsResources == true { result.resourceEntries = try await resourceEntries() }
        return result
    }

    // Puts `parts` where the page's own view and window were, and ends those.
    private func adopt(_ parts: WebViewParts, booster: PageBooster) {
        viewSignals?.disconnectAll()
        managerSignals?.disconnectAll()
        if let old = view?.pointer {
            webkit_web_view_stop_loading(old)
            webkit_web_view_terminate_web_process(old)
            WebViewParts.releaseInternalWidgets(of: old)
        }
        webkit_user_content_manager_unregister_script_message_handler(contentManager.pointer, "headway")
        // A hidden page stays hidden (`setVisible`): its new document starts hidden.
        if !isVisible { gtk_widget_hide(parts.window.pointer) }
        if let window { gtk_widget_destroy(window.pointer) }
        view = parts.view
        window = parts.window
        contentManager = parts.manager
        booster.owner = self
        pageBooster = booster
        let target = WeakPage(self)
        viewSignals = PageSignals.connect(view: parts.view, target: target)
        managerSignals = PageSignals.connect(manager: parts.manager, target: target)
    }
}

// What the booster's handler asks of the page its requests come from (`PageBooster.owner`).
extension Page: BoostedView {
    var navigationGeneration: Int? { tracker.current?.generation }

    func refusesAction() -> Bool { false }
}
