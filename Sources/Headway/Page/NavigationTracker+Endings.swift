import Foundation

// How loads end early: a replayed redirect loop, a redirect out of http(s), the delegate's
// refusal, a blocked main document, or DOMContentLoaded for a load that waits for no more.
extension NavigationTracker {
    // Counts a redirect the booster replays for the current load; past 20 (WebKit's own limit)
    // the load fails as WebKit fails a redirect loop. Returns whether it failed.
    func tooManyReplayedRedirects() -> Bool {
        guard let current = live, current.committed == nil else { return false }
        current.replayedRedirects += 1
        guard current.replayedRedirects > 20 else { return false }
        let what = current.requested?.absoluteString ?? "the page"
        complete(current, error: HeadwayError(.loadFailed, "could not load \(what): Load cannot follow more than 20 redirections"))
        return true
    }

    // A server redirect of the load being followed leads out of http(s), to a local file for
    // one: the load fails with `.blockedURL`. Returns whether it did (false when no load is
    // running before its commit).
    func refusedRedirect(to url: URL) -> Bool {
        guard let current = live, current.committed == nil, let from = current.finalURL ?? current.requested else { return false }
        complete(current, error: HeadwayError(.blockedURL, "\(from.absoluteString) redirected to \(url.absoluteString): "
            + "Headway does not follow a web page's redirect out of http(s)"))
        return true
    }

    func cancelledByPolicy(_ url: URL) {
        if redirecting != nil, let current, !current.isDone {
            // The delegate refused where a redirect led: the navigation ends there.
            redirecting = nil
            complete(current, error: HeadwayError(.loadFailed, "the navigation delegate cancelled the redirect to \(url.absoluteString)"))
            return
        }
        guard let current, !current.isDone, current.started == nil, current.requested != nil else { return }
        complete(current, error: HeadwayError(.loadFailed, "the navigation delegate cancelled the navigation to \(url.absoluteString)"))
    }

    // A request kept off the network by a blocked URL pattern: counted for the current load,
    // which fails with `.blockedURL` when it was its main document.
    func blocked(_ url: URL) {
        guard let current else { return }
        current.blocked += 1
        guard let live, live.committed == nil, let target = live.finalURL ?? live.requested,
              MirrorScheme.real(target) == url else { return }
        complete(live, error: HeadwayError(.blockedURL, "\(url.absoluteString) matches a blocked URL pattern"))
    }

    // The main frame's DOMContentLoaded fired: a load that waits for no more is done.
    func domContentLoaded() {
        guard let current = live, current.completesAtDOMContentLoaded, current.committed != nil else { return }
        complete(current, error: current.error)
    }
}
