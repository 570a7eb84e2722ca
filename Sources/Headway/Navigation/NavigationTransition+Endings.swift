import Foundation

// How loads end: FINISHED, a failure, a timeout, the delegate's refusal, a replayed redirect
// loop, a redirect out of http(s), a blocked main document, a replaced load left standing.
extension NavigationTransition.Step {
    mutating func finished(_ url: URL) {
        if state.redirecting != nil { return effects.append(.unowned) }
        guard let live = state.live else { return replacedLoadEnded() }
        let finished = now - live.origin
        if live.replacedByPage {
            // The page's own navigation replaced this load; its STARTED should follow at once.
            // If none does (a frame's navigation was taken for the page's), the load stands.
            state.current?.phase = .awaitingReplacement(finished: finished, url: url)
            effects += [.startTimer(.replacedLoad), .unowned]
            return
        }
        state.current?.finished = finished
        state.current?.finalURL = url
        // Whoever waits for this load checks for a client redirect right after it.
        if live.isAwaited, live.error == nil { state.awaitingClientRedirect = live.id }
        complete(error: live.error)
    }

    // A cancellation of a load the page's own navigation replaced is a client redirect, not a
    // failure: it belongs to no one.
    mutating func failed(_ url: URL?, _ error: HeadwayError) {
        if state.redirecting != nil { return effects.append(.unowned) }
        if error.code == .engine, let current = state.current, !current.isDone {
            return complete(error: error)
        }
        guard let live = state.live else { return replacedLoadEnded() }
        if error.isCancellation, !live.stopRequested {
            if live.pageNavigation != nil {
                if !live.replacedByPage { state.current?.phase = .replacedByPage }
                return effects.append(.unowned)
            }
            // A page restored from the back/forward cache has its icon load cancelled, which
            // WebKit reports as the main frame's; the committed page still finishes.
            if live.committed != nil { return effects.append(.unowned) }
        }
        if live.error == nil { state.current?.error = error }
    }

    // A navigation allowed by policy: the page's own when the current load already started.
    mutating func navigationAllowed(_ url: URL) {
        state.navigationSignals += 1
        endIconWait()
        guard state.redirecting == nil, let current = state.current, current.started != nil else { return }
        let now = now
        state.current?.pageNavigation = .init(url: url, at: now)
    }

    mutating func navigationRefused(_ url: URL) {
        if state.redirecting != nil, let current = state.current, !current.isDone {
            // The delegate refused where a redirect led: the navigation ends there.
            state.redirecting = nil
            let message = "the navigation delegate cancelled the redirect to \(url.absoluteString)"
            return complete(error: HeadwayError(.loadFailed, message))
        }
        guard let current = state.current, !current.isDone, current.started == nil, current.requested != nil
        else { return }
        complete(error: HeadwayError(.loadFailed,
                                     "the navigation delegate cancelled the navigation to \(url.absoluteString)"))
    }

    // Past WebKit's own limit, a load whose redirects the booster replays fails as WebKit fails
    // a redirect loop.
    mutating func replayedRedirectCounted() {
        guard let live = state.live, live.committed == nil else { return }
        state.current?.replayedRedirects += 1
        guard live.replayedRedirects + 1 > NavigationTiming.maxRedirects else { return }
        let what = live.requested?.absoluteString ?? "the page"
        complete(error: HeadwayError(.loadFailed, "could not load \(what): "
            + "Load cannot follow more than \(NavigationTiming.maxRedirects) redirections"))
    }

    // A server redirect of the load leads out of http(s), to a local file for one.
    mutating func redirectRefused(_ url: URL) {
        guard let live = state.live, live.committed == nil, let from = live.finalURL ?? live.requested else { return }
        complete(error: HeadwayError(.blockedURL, "\(from.absoluteString) redirected to \(url.absoluteString): "
            + "Headway does not follow a web page's redirect out of http(s)"))
    }

    // A request kept off the network: counted for the current load, which fails with
    // `.blockedURL` when it was its main document.
    mutating func blocked(_ url: URL) {
        guard state.current != nil else { return }
        state.current?.blocked += 1
        guard let live = state.live, live.committed == nil, let target = live.finalURL ?? live.requested,
              MirrorScheme.real(target) == url else { return }
        complete(error: HeadwayError(.blockedURL, "\(url.absoluteString) matches a blocked URL pattern"))
    }

    mutating func timedOut(_ id: Int, after timeout: Duration) {
        guard let current = state.current, current.id == id, !current.isDone else { return }
        let what = current.requested?.absoluteString ?? current.finalURL?.absoluteString ?? "the page"
        complete(error: HeadwayError(.timeout, "loading \(what) did not finish within \(timeout.formatted)"))
    }

    // No STARTED followed the FINISHED of a load the page's navigation cancelled: it stands,
    // failed when it had not committed.
    mutating func replacedLoadStood() {
        guard let current = state.current, case .awaitingReplacement(let finished, let url) = current.phase
        else { return }
        state.current?.finished = finished
        state.current?.finalURL = url
        complete(error: current.committed == nil
            ? HeadwayError(.loadFailed, "the load of \(url.absoluteString) was cancelled") : nil)
    }
}
