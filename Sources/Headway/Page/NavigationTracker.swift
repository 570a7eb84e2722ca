import Foundation

// Follows main-frame navigations from request to FINISHED and wakes whoever waits on them.
// A record completes on FINISHED (WebKit sends it after load-failed too), on a web-process
// termination, on a policy cancel before it started, or on timeout, exactly once.
//
// A navigation the page starts itself while its load runs cancels that load; the record then
// follows the new navigation as a client redirect instead of failing. One the page starts right
// after its load event is chained on by `Page.finish` through `awaitingClientRedirect`.
@EngineActor
final class NavigationTracker {
    // While set, a navigation the page starts after this finished record continues it.
    var awaitingClientRedirect: Record?
    private var clientRedirectTimer: Task<Void, Never>?

    private(set) var current: Record?
    // Set while the booster replays a main-frame redirect as a new WebKit load: the cancelled
    // load's failure and FINISHED belong to no one, and its STARTED is the redirect.
    var redirecting: URL?
    // Counts STARTED events and allowed navigation policies, to spot navigations a snippet began.
    var navigationSignals = 0
    private var nextID = 1
    var recordWaiters: [@EngineActor () -> Void] = []
    var commitWaiters: [Int: @EngineActor () -> Void] = [:]
    var nextCommitWaiter = 0

    func signalled() {
        navigationSignals += 1
    }

    // Opens a record for a load Headway is about to request.
    func begin(_ url: URL?) -> Record {
        redirecting = nil
        awaitingClientRedirect = nil
        clientRedirectTimer?.cancel()
        if let current, !current.isDone {
            complete(current, error: HeadwayError(.loadFailed, "the load of \(current.requested?.absoluteString ?? "the page") was superseded by a new navigation"))
        }
        let record = Record(id: nextID, requested: url, origin: Engine.now())
        nextID += 1
        current = record
        wakeRecordWaiters()
        return record
    }

    // Returns the target when this STARTED is a client redirect of the load being followed.
    func started(_ url: URL) -> URL? {
        defer { signalled() }
        if let current, !current.isDone, current.started == nil {
            current.started = Engine.now() - current.origin
        } else if let current, !current.isDone, current.cancelledByPage {
            current.cancelledByPage = false
            clientRedirectTimer?.cancel()
            let target = current.pageNavigation?.url ?? url
            current.redirects.append(Redirect(from: current.finalURL ?? url, to: target, kind: .client))
            current.finalURL = target
            return target
        } else if let previous = current, previous.isDone, previous === awaitingClientRedirect {
            awaitingClientRedirect = nil
            let target = previous.pageNavigation?.url ?? url
            let record = Record(id: nextID, continuing: previous, to: target)
            nextID += 1
            current = record
            wakeRecordWaiters()
            return target
        } else if current == nil || current!.isDone {
            // A navigation the page started after its load. WebKit gives the view's URI, which
            // stays the old page's until commit; its policy decision, just before, had the URL
            // it goes to (an older one may have been a frame's; a new web process may take a
            // while to start).
            let now = Engine.now()
            let asked = current.flatMap { previous in
                previous.pageNavigation.flatMap { $0.at >= previous.origin + (previous.finished ?? 0) && now - $0.at < 5000 ? $0.url : nil }
            }
            let record = begin(nil)
            record.started = 0
            record.finalURL = asked ?? url
            return nil
        }
        current?.finalURL = url
        return nil
    }

    func redirected(_ url: URL) {
        guard let current = live else { return }
        if let from = current.finalURL, from != url { current.redirects.append(Redirect(from: from, to: url, kind: .http)) }
        current.finalURL = url
    }

    // Events that arrive for a requested load before its STARTED belong to the load it replaced
    // (WebKit reports the old one's cancellation late); they must not touch the new record.
    var live: Record? {
        guard let current, !current.isDone, current.started != nil else { return nil }
        return current
    }

    func committed(_ url: URL) {
        wakeCommitWaiters()
        guard let current = live else { return }
        current.committed = Engine.now() - current.origin
        current.finalURL = url
    }

    // Returns false for the FINISHED of a load the page's own navigation replaced, which
    // belongs to no one.
    @discardableResult
    func finished(_ url: URL) -> Bool {
        guard let current = live else { return true }
        if current.cancelledByPage {
            // The page's own navigation replaced this load; its STARTED should follow at once.
            // If none does (a frame's navigation was taken for the page's), the load stands.
            let finished = Engine.now() - current.origin
            clientRedirectTimer = Task { @EngineActor [weak self] in
                try? await Task.sleep(for: .milliseconds(500))
                guard let self, !Task.isCancelled, current.cancelledByPage, !current.isDone else { return }
                current.cancelledByPage = false
                current.finished = finished
                current.finalURL = url
                self.complete(current, error: current.committed == nil
                    ? HeadwayError(.loadFailed, "the load of \(url.absoluteString) was cancelled") : nil)
            }
            return false
        }
        current.finished = Engine.now() - current.origin
        current.finalURL = url
        // Whoever waits for this load checks for a client redirect right after it.
        if !current.waiters.isEmpty, current.error == nil { awaitingClientRedirect = current }
        complete(current, error: current.error)
        return true
    }

    // Returns false for the cancellation of a load the page's own navigation replaced: that is
    // a client redirect, not a failure.
    @discardableResult
    func failed(_ url: URL?, _ error: HeadwayError) -> Bool {
        if error.code == .engine, let current, !current.isDone {
            complete(current, error: error)
            return true
        }
        guard let current = live else { return true }
        if error.isCancellation, !current.stopRequested {
            if current.pageNavigation != nil {
                current.cancelledByPage = true
                return false
            }
            // A page restored from the back/forward cache has its icon load cancelled, which
            // WebKit reports as the main frame's; the committed page still finishes.
            if current.committed != nil { return false }
        }
        if current.error == nil { current.error = error }
        return true
    }

    // The main document's response is no page (see `ResponsePolicy`): the load fails with
    // `error` rather than with the policy interruption WebKit reports next.
    func notAPage(_ error: HeadwayError) {
        guard let current = live else { return }
        current.error = error
    }

    // A navigation allowed by policy: the page's own when the current load already started.
    func policyAllowedNavigation(_ url: URL) {
        defer { signalled() }
        guard redirecting == nil, let current, current.started != nil else { return }
        current.pageNavigation = (url, Engine.now())
    }

    // Completes `record` with a timeout if it is still running. Returns whether it did.
    @discardableResult
    func timeOut(_ record: Record, after seconds: Double) -> Bool {
        guard !record.isDone else { return false }
        let what = record.requested?.absoluteString ?? record.finalURL?.absoluteString ?? "the page"
        complete(record, error: HeadwayError(.timeout, "loading \(what) did not finish within \(formatSeconds(seconds))"))
        return true
    }

    // Ends `record` with `error` if it is still running (the page closed, for one).
    func fail(_ record: Record, with error: HeadwayError) {
        complete(record, error: error)
    }

    func complete(_ record: Record, error: HeadwayError?) {
        guard !record.isDone else { return }
        record.isDone = true
        record.error = error
        let waiters = record.waiters
        record.waiters.removeAll()
        for waiter in waiters { waiter() }
    }
}
