import Foundation

/// Follows main-frame navigations from request to FINISHED and wakes whoever waits on them.
/// A record completes on FINISHED (WebKit sends it after load-failed too), on a web-process
/// termination, on a policy cancel before it started, or on timeout, exactly once.
@EngineActor
final class NavigationTracker {
    final class Record {
        let id: Int
        let requested: URL?
        /// Monotonic ms at the request (or at STARTED for navigations the page began itself).
        let origin: Double
        var started: Double?
        var committed: Double?
        var finished: Double?
        var finalURL: URL?
        var error: HeadwayError?
        var isDone = false
        fileprivate var waiters: [CheckedContinuation<Void, Never>] = []

        init(id: Int, requested: URL?, origin: Double) {
            self.id = id
            self.requested = requested
            self.origin = origin
        }
    }

    private(set) var current: Record?
    /// Set while the booster replays a main-frame redirect as a new WebKit load: the cancelled
    /// load's failure and FINISHED belong to no one, and its STARTED is the redirect.
    var redirecting: URL?
    /// Counts STARTED events and allowed navigation policies, to spot navigations a snippet began.
    private(set) var navigationSignals = 0
    private var nextID = 1
    private var recordWaiters: [CheckedContinuation<Void, Never>] = []

    /// Opens a record for a load Headway is about to request.
    func begin(_ url: URL?) -> Record {
        redirecting = nil
        if let current, !current.isDone {
            complete(current, error: HeadwayError(.loadFailed, "the load of \(current.requested?.absoluteString ?? "the page") was superseded by a new navigation"))
        }
        let record = Record(id: nextID, requested: url, origin: Engine.now())
        nextID += 1
        current = record
        wakeRecordWaiters()
        return record
    }

    /// Waits until a record other than `record` begins, or `seconds` pass. Returns the new record.
    func nextRecord(after record: Record?, within seconds: Double) async -> Record? {
        if let current, current !== record { return current }
        let timer = Task { @EngineActor [weak self] in
            try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
            self?.wakeRecordWaiters()
        }
        await withCheckedContinuation { recordWaiters.append($0) }
        timer.cancel()
        if let current, current !== record { return current }
        return nil
    }

    func started(_ url: URL) {
        navigationSignals += 1
        if let current, !current.isDone, current.started == nil {
            current.started = Engine.now() - current.origin
        } else if current == nil || current!.isDone {
            let record = begin(nil)
            record.started = 0
        }
        current?.finalURL = url
    }

    func redirected(_ url: URL) { live?.finalURL = url }

    /// Events that arrive for a requested load before its STARTED belong to the load it replaced
    /// (WebKit reports the old one's cancellation late); they must not touch the new record.
    private var live: Record? {
        guard let current, !current.isDone, current.started != nil else { return nil }
        return current
    }

    func committed(_ url: URL) {
        guard let current = live else { return }
        current.committed = Engine.now() - current.origin
        current.finalURL = url
    }

    func finished(_ url: URL) {
        guard let current = live else { return }
        current.finished = Engine.now() - current.origin
        current.finalURL = url
        complete(current, error: current.error)
    }

    func failed(_ url: URL?, _ error: HeadwayError) {
        if error.code == .engine, let current, !current.isDone {
            complete(current, error: error)
            return
        }
        guard let current = live else { return }
        if current.error == nil { current.error = error }
    }

    func policyAllowedNavigation() { navigationSignals += 1 }

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

    /// Completes `record` with a timeout if it is still running. Returns whether it did.
    @discardableResult
    func timeOut(_ record: Record, after seconds: Double) -> Bool {
        guard !record.isDone else { return false }
        let what = record.requested?.absoluteString ?? record.finalURL?.absoluteString ?? "the page"
        complete(record, error: HeadwayError(.timeout, "loading \(what) did not finish within \(formatSeconds(seconds))"))
        return true
    }

    func wait(_ record: Record) async {
        if record.isDone { return }
        await withCheckedContinuation { record.waiters.append($0) }
    }

    private func wakeRecordWaiters() {
        let waiters = recordWaiters
        recordWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }

    /// Ends `record` with `error` if it is still running (the page closed, for one).
    func fail(_ record: Record, with error: HeadwayError) {
        complete(record, error: error)
    }

    private func complete(_ record: Record, error: HeadwayError?) {
        guard !record.isDone else { return }
        record.isDone = true
        record.error = error
        let waiters = record.waiters
        record.waiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }
}

func formatSeconds(_ seconds: Double) -> String {
    seconds == seconds.rounded() ? "\(Int(seconds)) s" : String(format: "%.2f s", seconds)
}
