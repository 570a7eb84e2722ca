import Foundation

// The tracker's logic as a pure function: a state and an event (at `now`, on Headway's clock) give
// the next state and what the shell must do. No WebKit, no clock, no tasks.
//
// A load completes on FINISHED (WebKit sends it after load-failed too), on an engine failure,
// on a policy cancel before it started, on a timeout, or when its waiter gives up, exactly once.
// A navigation the page starts while its load runs cancels that load; the load then follows the
// new navigation as a client redirect instead of failing. One the page starts right after its
// load event continues the load while its waiter checks for it (`awaitingClientRedirect`).
enum NavigationTransition {
    static func transition(_ state: NavigationState, _ event: NavigationEvent,
                           at now: ContinuousClock.Instant) -> (NavigationState, [NavigationEffect]) {
        var step = Step(state: state, now: now)
        step.apply(event)
        return (step.state, step.effects)
    }

    struct Step {
        var state: NavigationState
        let now: ContinuousClock.Instant
        var effects: [NavigationEffect] = []

        mutating func apply(_ event: NavigationEvent) {
            switch event {
            case .requested(let url, let domContentLoaded, let commit, let sameDocument):
                begin(url, completesAtDOMContentLoaded: domContentLoaded, completesAtCommit: commit)
                state.current?.mayBeSameDocument = sameDocument
            case .started(let url): started(url)
            case .redirected(let url): redirected(url)
            case .committed(let url): committed(url)
            case .finished(let url): finished(url)
            case .failed(let url, let error): failed(url, error)
            case .webProcessEnded(let error): complete(error: error)
            case .notAPage(let error):
                if state.live != nil { state.current?.error = error }
            case .navigationAllowed(let url): navigationAllowed(url)
            case .navigationRefused(let url): navigationRefused(url)
            case .replayingRedirect(let url): state.redirecting = url
            case .replayedRedirectCounted: replayedRedirectCounted()
            case .redirectRefused(let url): redirectRefused(url)
            case .blocked(let url): blocked(url)
            case .domContentLoaded:
                guard let live = state.live, live.committed != nil else { return }
                let at = now - live.origin
                if live.domContentLoaded == nil { state.current?.domContentLoaded = at }
                if live.completesAtDOMContentLoaded { complete(error: live.error) }
            case .loadingStopped(let url): loadingStopped(url)
            case .urlChanged(let url): urlChanged(url)
            case .historyItemAdded(let url): historyItemAdded(url)
            case .completes(let id, let condition): completes(id, at: condition)
            case .stop: state.current?.stopRequested = true
            case .awaited(let id):
                if state.current?.id == id { state.current?.isAwaited = true }
            case .clientRedirectCheckEnded(let id):
                if state.awaitingClientRedirect == id { state.awaitingClientRedirect = nil }
            case .timedOut(let id, let timeout): timedOut(id, after: timeout)
            case .abandoned(let id, let error):
                if state.iconWait?.load == id { endIconWait() }
                guard let current = state.current, current.id == id, !current.isDone else { return }
                complete(error: error)
            case .timerFired(.replacedLoad): replacedLoadStood()
            case .iconWaitBegan(let id, let icons):
                guard state.current?.id == id else { return }
                state.iconWait = .init(load: id, icons: icons)
                effects.append(.startTimer(.iconWait))
            case .iconRequestsEnded, .iconWaitAbandoned, .timerFired(.iconWait): endIconWait()
            }
        }

        // Completes the current load with `error`, if it is still running.
        mutating func complete(error: HeadwayError?) {
            guard var load = state.current, !load.isDone else { return }
            load.phase = .done
            load.error = error
            state.current = load
            effects.append(.complete(load))
        }

        // The icon wait ends: its icon request ended or its time is up, or the page goes on
        // (a navigation the page starts meanwhile takes over).
        mutating func endIconWait() {
            guard state.iconWait != nil else { return }
            state.iconWait = nil
            effects += [.cancelTimer(.iconWait), .iconWaitEnded]
        }

        // A new load, Headway's or the page's: the running one, if any, is superseded.
        mutating func begin(_ url: URL?, completesAtDOMContentLoaded: Bool = false, completesAtCommit: Bool = false) {
            endIconWait()
            state.redirecting = nil
            state.awaitingClientRedirect = nil
            effects.append(.cancelTimer(.replacedLoad))
            let what = state.current?.requested?.absoluteString ?? "the page"
            complete(error: HeadwayError(.loadFailed, "the load of \(what) was superseded by a new navigation"))
            state.current = NavigationLoad(id: state.nextID, requested: url, origin: now,
                                           completesAtDOMContentLoaded: completesAtDOMContentLoaded,
                                           completesAtCommit: completesAtCommit)
            state.nextID += 1
            effects.append(.began(state.current!.id))
        }

        mutating func started(_ url: URL) {
            if let target = state.redirecting {
                // The booster's replay of a redirect: this STARTED is that redirect.
                state.redirecting = nil
                redirected(target)
                effects.append(.reportRedirect(target))
                return
            }
            state.navigationSignals += 1
            endIconWait()
            guard let current = state.current else { return startedByPage(url) }
            if !current.isDone, current.started == nil {
                let started = now - current.origin
                state.current?.started = started
                state.current?.phase = .loading
                state.current?.finalURL = url
            } else if !current.isDone, current.replacedByPage {
                effects.append(.cancelTimer(.replacedLoad))
                let target = current.pageNavigation?.url ?? url
                state.current?.phase = .loading
                state.current?.redirects.append(Redirect(from: current.finalURL ?? url, to: target, kind: .client))
                state.current?.finalURL = target
                effects.append(.reportRedirect(target))
            } else if current.isDone, current.id == state.awaitingClientRedirect {
                state.awaitingClientRedirect = nil
                let target = current.pageNavigation?.url ?? url
                state.current = NavigationLoad(id: state.nextID, continuing: current, to: target, at: now)
                state.nextID += 1
                effects += [.began(state.current!.id), .reportRedirect(target)]
            } else if current.isDone {
                startedByPage(url)
            } else {
                state.current?.finalURL = url
            }
        }

        // A navigation the page started after its load. WebKit gives the view's URI, which stays
        // the old page's until commit; its policy decision, just before, had the URL it goes to
        // (an older one may have been a frame's; a new web process may take a while to start).
        mutating func startedByPage(_ url: URL) {
            let asked = state.current.flatMap { previous in
                previous.pageNavigation.flatMap {
                    $0.at >= previous.origin + (previous.finished ?? .zero)
                        && now - $0.at < NavigationTiming.policyDecisionFreshness ? $0.url : nil
                }
            }
            begin(nil)
            state.current?.started = .zero
            state.current?.phase = .loading
            state.current?.finalURL = asked ?? url
        }

        mutating func redirected(_ url: URL) {
            guard let live = state.live else { return }
            if let from = live.finalURL, from != url {
                state.current?.redirects.append(Redirect(from: from, to: url, kind: .http))
            }
            state.current?.finalURL = url
        }

        mutating func committed(_ url: URL) {
            effects.append(.commitSeen)
            guard let live = state.live else { return }
            let committed = now - live.origin
            state.current?.committed = committed
            state.current?.finalURL = url
            if live.completesAtCommit { complete(error: live.error) }
        }
    }
}
