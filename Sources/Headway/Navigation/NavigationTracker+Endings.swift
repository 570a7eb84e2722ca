import Foundation

// The tracker's other events, as its users send them: policy decisions, the booster's replayed
// redirects, blocked requests, the page's DOMContentLoaded, stops, timeouts and give-ups.
extension NavigationTracker {
    // Counts a redirect the booster replays for the current load; past WebKit's own limit the
    // load fails as WebKit fails a redirect loop. Returns whether it failed.
    func tooManyReplayedRedirects() -> Bool { completes(.replayedRedirectCounted) }

    // A server redirect of the load being followed leads out of http(s): the load fails with
    // `.blockedURL`. Returns whether it did (false when no load is running before its commit).
    func refusedRedirect(to url: URL) -> Bool { completes(.redirectRefused(url)) }

    func cancelledByPolicy(_ url: URL) { send(.navigationRefused(url)) }

    // A navigation allowed by policy: the page's own when the current load already started.
    func policyAllowedNavigation(_ url: URL) { send(.navigationAllowed(url)) }

    // The main document's response is no page (see `ResponsePolicy`).
    func notAPage(_ error: HeadwayError) { send(.notAPage(error)) }

    func blocked(_ url: URL) { send(.blocked(url)) }

    func domContentLoaded() { send(.domContentLoaded) }

    func webProcessEnded(_ error: HeadwayError) { send(.webProcessEnded(error)) }

    // Completes `record` with a timeout if it is still running. Returns whether it did.
    @discardableResult
    func timeOut(_ record: Record, after timeout: Duration) -> Bool {
        record === current && completes(.timedOut(load: record.id, after: timeout))
    }

    // Ends `record` with `error` if it is still running (the page closed, for one).
    func fail(_ record: Record, with error: HeadwayError) {
        guard record === current else { return }
        send(.abandoned(load: record.id, error))
    }

    private func completes(_ event: NavigationEvent) -> Bool {
        send(event).contains { if case .complete = $0 { true } else { false } }
    }
}
