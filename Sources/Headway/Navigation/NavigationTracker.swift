import Foundation

// Follows main-frame navigations from request to completion and wakes whoever waits on them.
// The logic is `NavigationTransition`, a pure function of the state and one event; this shell
// feeds it the events (on the engine thread, stamped with the engine's clock), keeps a `Record`
// per load for its waiters, and runs the effects: resuming waiters and running the timer.
@EngineActor
final class NavigationTracker {
    private(set) var state = NavigationState()
    private(set) var current: Record?
    private var timers: [NavigationTimer: Task<Void, Never>] = [:]
    var recordWaiters: [@EngineActor () -> Void] = []
    var commitWaiters: [Int: @EngineActor () -> Void] = [:]
    var nextCommitWaiter = 0
    var iconWaiters: [@EngineActor () -> Void] = []
    // Told of each same-document navigation (the page's delegate chain).
    var sameDocumentHandler: (@EngineActor (URL) -> Void)?

    var navigationSignals: Int { state.navigationSignals }
    var sameDocumentNavigations: Int { state.sameDocumentNavigations }
    var redirecting: URL? { state.redirecting }
    // The current record once WebKit started its load and until it is done.
    var live: Record? { state.live == nil ? nil : current }

    // The finished record whose waiter checks for a client redirect right after it. Setting it
    // to nil ends that check.
    var awaitingClientRedirect: Record? {
        get { state.awaitingClientRedirect.flatMap { $0 == current?.id ? current : nil } }
        set {
            guard newValue == nil, let id = state.awaitingClientRedirect else { return }
            send(.clientRedirectCheckEnded(load: id))
        }
    }

    // Feeds one event to the transition and runs its effects; returns them.
    @discardableResult
    func send(_ event: NavigationEvent) -> [NavigationEffect] {
        let (next, effects) = NavigationTransition.transition(state, event, at: Engine.now())
        state = next
        if let load = next.current, let current, current.id == load.id { current.load = load }
        for effect in effects { run(effect) }
        return effects
    }

    private func run(_ effect: NavigationEffect) {
        switch effect {
        case .complete(let load):
            guard let record = current, record.id == load.id else { return }
            record.load = load
            let waiters = record.waiters
            record.waiters.removeAll()
            for waiter in waiters { waiter() }
        case .began:
            guard let load = state.current else { return }
            current = Record(load)
            wakeRecordWaiters()
        case .commitSeen:
            wakeCommitWaiters()
        case .sameDocumentSeen:
            wakeRecordWaiters()
        case .sameDocument(let url):
            sameDocumentHandler?(url)
        case .startTimer(let timer):
            timers[timer]?.cancel()
            timers[timer] = Task { @EngineActor [weak self] in
                try? await Task.sleep(for: timer.duration)
                guard let self, !Task.isCancelled else { return }
                self.timers[timer] = nil
                self.send(.timerFired(timer))
            }
        case .cancelTimer(let timer):
            timers[timer]?.cancel()
            timers[timer] = nil
        case .iconWaitEnded:
            let waiters = iconWaiters
            iconWaiters.removeAll()
            for waiter in waiters { waiter() }
        case .reportRedirect, .unowned:
            break
        }
    }

    // Opens a record for a load Headway is about to request.
    func begin(_ url: URL?, until condition: LoadCondition = .load, mayBeSameDocument: Bool = false) -> Record {
        send(.requested(url, completesAtDOMContentLoaded: condition == .domContentLoaded,
                        completesAtCommit: condition == .committed, mayBeSameDocument: mayBeSameDocument))
        return current!
    }

    // Returns the target when this STARTED is a client (or replayed) redirect of the load being
    // followed.
    func started(_ url: URL) -> URL? {
        for case .reportRedirect(let target) in send(.started(url)) { return target }
        return nil
    }

    func redirected(_ url: URL) { send(.redirected(url)) }

    func committed(_ url: URL) { send(.committed(url)) }

    // Returns false for the FINISHED of a load that was replaced, which belongs to no one.
    @discardableResult
    func finished(_ url: URL) -> Bool { !send(.finished(url)).contains(.unowned) }

    // Returns false for a failure that belongs to no one (the cancellation of a load the page's
    // own navigation replaced is a client redirect, not a failure).
    @discardableResult
    func failed(_ url: URL?, _ error: HeadwayError) -> Bool { !send(.failed(url, error)).contains(.unowned) }
}
