import CWebKit
public import Foundation

extension Page {
    /// Runs `action` (a click, keys, a script) and, when it started a navigation of the page,
    /// follows that navigation until `condition`, within `timeout`; returns its result, or nil
    /// when `action` started none.
    ///
    /// ```swift
    /// let next = try await page.followNavigation { try await page.click(selector: "button[type=submit]") }
    /// print(next?.title ?? "the page stayed")
    /// ```
    ///
    /// WebKit's events decide, never a quiet period: a load that started, or a navigation the page
    /// asked for (its policy decision), once the page has run the tasks `action` queued (the
    /// navigation a `submit` handler or a `form.submit()` starts on WebKit's zero-delay timer).
    /// A same-document navigation (a fragment, `history.pushState` or `replaceState`) ends at once,
    /// with `isSameDocument` set. Errors as for `load`: a navigation to a download, or to a
    /// response that is no page, throws `.notAPage`. With `holdsDialogs`, a dialog the page opens
    /// meanwhile ends the wait with nil; the page goes on with the navigation, and `latestLoad`
    /// gets its result. What `action` throws is thrown.
    @discardableResult
    public func followNavigation(
        until condition: LoadCondition = .load,
        timeout: Duration = .seconds(30),
        startedBy action: () async throws -> Void
    ) async throws -> LoadResult? {
        let mark = navigationMark()
        try await action()
        return try await followNavigation(since: mark, until: condition, timeout: timeout)
    }

    // As `followNavigation(until:timeout:startedBy:)`, for an action whose script let the page
    // run one task after it before it answered (WebDriver's user scripts): a navigation it
    // scheduled has asked for its policy by then, so no probe of the page's next task is needed.
    @discardableResult
    package func followNavigation(
        afterItsOwnTask action: () async throws -> Void, until condition: LoadCondition, timeout: Duration
    ) async throws -> LoadResult? {
        let mark = navigationMark()
        try await action()
        return try await followNavigation(since: mark, until: condition, timeout: timeout, probing: false)
    }

    // What the tracker had seen when an action began.
    struct NavigationMark: Sendable {
        let record: NavigationTracker.Record?
        let signals: Int
        let sameDocument: Int
    }

    enum StartedNavigation {
        case document(NavigationTracker.Record)
        case sameDocument
    }

    func navigationMark() -> NavigationMark {
        NavigationMark(record: tracker.current, signals: tracker.navigationSignals,
                       sameDocument: tracker.sameDocumentNavigations)
    }

    // Follows the navigation started since `mark`, if one did (see `followNavigation`).
    func followNavigation(since mark: NavigationMark, until condition: LoadCondition,
                          timeout: Duration, probing: Bool = true) async throws -> LoadResult? {
        let follow = { @Sendable @EngineActor () async throws -> LoadResult? in
            switch await self.startedNavigation(since: mark, probing: probing) {
            case nil: return nil
            case .sameDocument?: return self.recorded(self.sameDocumentResult(nil))
            case .document(let record)?:
                let started = Engine.now()
                if condition == .domContentLoaded || condition == .committed {
                    self.tracker.send(.completes(load: record.id, at: condition))
                }
                let result = try await self.finish(record, timeout: timeout)
                guard condition == .networkIdle else { return result }
                let left = timeout.clamped - started.duration(to: Engine.now())
                try await self.waitForNetworkIdle(timeout: left.clamped)
                return result
            }
        }
        // A dialog ends the wait, not the navigation, which the page goes on with once it is answered.
        return holdsDialogs ? try await unlessDialogOpens(cancellingWork: false, follow) ?? nil : try await follow()
    }

    // A navigation of the page's started since `mark`, or nil. A load that started, or a
    // same-document navigation, shows at once; a navigation the page asked for (an allowed
    // policy decision, which frames get too) shows within a moment; with neither, one task of
    // the page lets a navigation it scheduled ask for its policy.
    func startedNavigation(since mark: NavigationMark, probing: Bool = true) async -> StartedNavigation? {
        func seen() -> StartedNavigation? {
            if let current = tracker.current, current !== mark.record { return .document(current) }
            return tracker.sameDocumentNavigations != mark.sameDocument ? .sameDocument : nil
        }
        if let started = seen() { return started }
        if probing, tracker.navigationSignals == mark.signals, responsiveness?.isRunning != true, openDialog == nil,
           let view = view?.pointer {
            _ = try? await JavaScriptCall.callAsyncFunction(view, PageScripts.nextTask, arguments: [:],
                                                            world: PageScripts.world, sourceURI: nil,
                                                            timeout: .seconds(2), what: "the navigation probe")
        }
        guard seen() == nil, tracker.navigationSignals != mark.signals else { return seen() }
        // After a script's own task, a navigation it scheduled has asked already: a shorter wait
        // (a frame's allowed navigation counts too, and a script that adds frames is common).
        let deadline = Engine.now() + (probing ? NavigationTiming.policyToStart : NavigationTiming.afterOwnTask)
        while seen() == nil, Engine.now() < deadline {
            await tracker.nextChange(within: Engine.now().duration(to: deadline))
        }
        return seen()
    }
}
