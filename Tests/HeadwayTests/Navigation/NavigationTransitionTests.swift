import Foundation
@testable import Headway
import Testing

/// The navigation tracker's transition function, fed made-up WebKit event sequences: no WebKit.
@Suite("Navigation transitions")
struct NavigationTransitionTests {
    let a = URL(string: "http://site.test/a")!
    let b = URL(string: "http://site.test/b")!
    // What WebKit reports for a load cancelled by a newer navigation or a stop.
    let cancelled = HeadwayError(.loadFailed, "could not load: cancelled", gerror: .init(
        domain: "WebKitNetworkError", code: 302, message: "Load request cancelled"))

    /// A tracker state driven one event at a time, every event 10 ms after the last.
    struct Run {
        var state = NavigationState()
        var now = ContinuousClock.now
        var effects: [NavigationEffect] = []

        @discardableResult
        mutating func send(_ events: NavigationEvent...) -> [NavigationEffect] {
            effects = []
            for event in events {
                now += .milliseconds(10)
                let (next, made) = NavigationTransition.transition(state, event, at: now)
                state = next
                effects += made
            }
            return effects
        }

        var load: NavigationLoad { state.current! }
        var completed: [NavigationLoad] {
            effects.compactMap { if case .complete(let load) = $0 { load } else { nil } }
        }
    }

    // A load Headway asked for, with a waiter, that WebKit started and committed.
    func committed(_ url: URL) -> Run {
        var run = Run()
        run.send(.requested(url, completesAtDOMContentLoaded: false), .awaited(load: 1), .started(url), .committed(url))
        return run
    }

    @Test func anHTTPRedirect() {
        var run = Run()
        run.send(.requested(a, completesAtDOMContentLoaded: false), .awaited(load: 1), .started(a), .redirected(b),
                 .committed(b))
        #expect(run.load.phase == .loading)
        run.send(.finished(b))
        #expect(run.completed.count == 1)
        #expect(run.load.isDone && run.load.error == nil && run.load.finalURL == b)
        #expect(run.load.redirects == [Redirect(from: a, to: b, kind: .http)])
        #expect(run.state.awaitingClientRedirect == 1)
    }

    @Test func aClientRedirectDuringTheLoad() {
        var run = committed(a)
        // location.replace: the policy decision, then WebKit cancels the running load.
        #expect(run.send(.navigationAllowed(b), .failed(a, cancelled)) == [.unowned])
        #expect(run.load.phase == .replacedByPage)
        #expect(run.send(.finished(a)) == [.startTimer(.replacedLoad), .unowned])
        // The new navigation's STARTED (the view's URI is still the old page's).
        #expect(run.send(.started(a)) == [.cancelTimer(.replacedLoad), .reportRedirect(b)])
        run.send(.committed(b), .finished(b))
        #expect(run.completed.map(\.error) == [nil])
        #expect(run.load.id == 1 && run.load.finalURL == b)
        #expect(run.load.redirects == [Redirect(from: a, to: b, kind: .client)])
    }

    @Test func aJavaScriptRedirectRightAfterTheLoad() {
        var run = committed(a)
        run.send(.finished(a))
        #expect(run.completed.count == 1)
        #expect(run.state.awaitingClientRedirect == 1)
        #expect(run.send(.navigationAllowed(b), .started(a)) == [.began(2), .reportRedirect(b)])
        #expect(run.load.generation == 1 && run.load.requested == a && run.load.finalURL == b)
        #expect(run.load.redirects == [Redirect(from: a, to: b, kind: .client)])
        run.send(.awaited(load: 2), .committed(b), .finished(b))
        #expect(run.completed.map(\.id) == [2])
    }

    @Test func aMetaRefreshNobodyWaitsForIsANewNavigation() {
        var run = committed(a)
        run.send(.finished(a), .clientRedirectCheckEnded(load: 1))
        #expect(run.state.awaitingClientRedirect == nil)
        #expect(run.send(.navigationAllowed(b), .started(a)) == [.cancelTimer(.replacedLoad), .began(2)])
        #expect(run.load.generation == 2 && run.load.requested == nil && run.load.redirects.isEmpty)
        // Its policy decision named where it goes; STARTED had the old page's URL.
        #expect(run.load.finalURL == b)
    }

    @Test func aStalePolicyDecisionDoesNotNameThePageANavigationGoesTo() {
        var run = committed(a)
        run.send(.finished(a), .clientRedirectCheckEnded(load: 1), .navigationAllowed(b))
        run.now += NavigationTiming.policyDecisionFreshness
        run.send(.started(a))
        #expect(run.load.id == 2 && run.load.finalURL == a)
    }

    @Test(arguments: [HeadwayError(.notAPage, "the server answered 204 No Content", status: 204),
                      HeadwayError(.notAPage, "the response is a download (attachment)", status: 200)])
    func aResponseThatIsNoPage(_ reason: HeadwayError) {
        var run = Run()
        run.send(.requested(a, completesAtDOMContentLoaded: false), .started(a), .notAPage(reason))
        // WebKit then reports the policy interruption, and FINISHED.
        run.send(.failed(a, HeadwayError(.loadFailed, "Frame load was interrupted")), .finished(a))
        #expect(run.completed.map(\.error) == [reason])
    }

    @Test func aWebProcessCrashMidLoadFailsAtOnceAndTheLateFinishedIsIgnored() {
        var run = committed(a)
        let crash = HeadwayError(.engine, "the page's web process crashed")
        run.send(.webProcessEnded(crash))
        #expect(run.completed.map(\.error) == [crash])
        #expect(run.send(.failed(a, cancelled), .finished(a)).isEmpty)
    }

    @Test func theNetworkProcessEndingFailsAtOnce() {
        var run = committed(a)
        let lost = HeadwayError(.engine, "WebKit's network process ended")
        run.send(.failed(a, lost))
        #expect(run.completed.map(\.error) == [lost])
    }

    @Test func aStopFailsTheLoadWithWebKitsCancellation() {
        var run = committed(a)
        run.send(.navigationAllowed(b), .stop)
        #expect(run.send(.failed(a, cancelled)).isEmpty)
        run.send(.finished(a))
        #expect(run.completed.map(\.error) == [cancelled])
    }

    @Test func aFailedLoadCompletesAtItsLateFinished() {
        var run = Run()
        let refused = HeadwayError(.loadFailed, "could not load: Connection refused")
        run.send(.requested(a, completesAtDOMContentLoaded: false), .started(a), .failed(a, refused))
        #expect(!run.load.isDone)
        run.send(.finished(a))
        #expect(run.completed.map(\.error) == [refused])
    }

    @Test func theReplacedLoadsLateEventsDoNotTouchTheNewOne() {
        var run = committed(a)
        #expect(run.send(.requested(b, completesAtDOMContentLoaded: false)).contains(.began(2)))
        #expect(run.completed.first?.error?.message.contains("superseded") == true)
        // WebKit reports the old load's cancellation and FINISHED before the new one's STARTED.
        #expect(run.send(.failed(a, cancelled), .finished(a)).isEmpty)
        #expect(run.load.error == nil && run.load.phase == .requested)
        run.send(.started(b), .committed(b), .finished(b))
        #expect(run.completed.map(\.error) == [nil])
    }

    @Test func aFramesNavigationTakenForThePagesLeavesTheLoadStanding() {
        var run = committed(a)
        run.send(.navigationAllowed(b), .failed(a, cancelled), .finished(a))
        // No STARTED follows within the grace.
        run.send(.timerFired(.replacedLoad))
        #expect(run.completed.map(\.error) == [nil])
        #expect(run.load.finalURL == a && run.load.finished != nil)
        // A late timer for a load that is done changes nothing.
        #expect(run.send(.timerFired(.replacedLoad)).isEmpty)
    }

    @Test func aTimeoutCompletesOnlyTheLoadItWasFor() {
        var run = committed(a)
        #expect(run.send(.timedOut(load: 7, after: .seconds(1))).isEmpty)
        run.send(.timedOut(load: 1, after: .milliseconds(1500)))
        #expect(run.completed.first?.error?.code == .timeout)
        #expect(run.send(.finished(a)).isEmpty)
    }

    @Test func theBoostersReplayedRedirectIsOneNavigation() {
        var run = Run()
        run.send(.requested(a, completesAtDOMContentLoaded: false), .awaited(load: 1), .started(a),
                 .replayedRedirectCounted, .replayingRedirect(b))
        // The replaced WebKit load's cancellation and FINISHED belong to no one.
        #expect(run.send(.failed(a, cancelled), .finished(a)) == [.unowned, .unowned])
        #expect(run.send(.started(b)) == [.reportRedirect(b)])
        #expect(run.load.redirects == [Redirect(from: a, to: b, kind: .http)])
        run.send(.committed(b), .finished(b))
        #expect(run.completed.map(\.error) == [nil])
    }

    @Test func aRedirectLoopOfReplayedRedirectsFails() {
        var run = Run()
        run.send(.requested(a, completesAtDOMContentLoaded: false), .started(a))
        for _ in 0..<NavigationTiming.maxRedirects { #expect(run.send(.replayedRedirectCounted).isEmpty) }
        run.send(.replayedRedirectCounted)
        #expect(run.completed.first?.error?.message.contains("more than 20 redirections") == true)
    }

    @Test func aLoadUntilDOMContentLoadedCompletesThere() {
        var run = Run()
        run.send(.requested(a, completesAtDOMContentLoaded: true), .started(a), .committed(a), .domContentLoaded)
        #expect(run.completed.map(\.error) == [nil])
    }

    // A finished load whose icon request is in flight.
    func waitingForItsIcon() -> Run {
        var run = committed(a)
        run.send(.finished(a), .clientRedirectCheckEnded(load: 1))
        #expect(run.send(.iconWaitBegan(load: 1, icons: ["http://site.test/favicon.ico"])) == [.startTimer(.iconWait)])
        return run
    }

    @Test func theIconWaitEndsWithTheIconRequest() {
        var run = waitingForItsIcon()
        #expect(run.send(.iconRequestsEnded) == [.cancelTimer(.iconWait), .iconWaitEnded])
        #expect(run.state.iconWait == nil)
        #expect(run.send(.timerFired(.iconWait)).isEmpty)
    }

    @Test func theIconWaitTimesOut() {
        var run = waitingForItsIcon()
        #expect(run.send(.timerFired(.iconWait)).contains(.iconWaitEnded))
        #expect(run.send(.iconRequestsEnded).isEmpty)
    }

    @Test func theIconWaitEndsWhenThePageNavigates() {
        var run = waitingForItsIcon()
        #expect(run.send(.navigationAllowed(b)).contains(.iconWaitEnded))
        run = waitingForItsIcon()
        #expect(run.send(.started(b)).contains(.iconWaitEnded))
        #expect(run.load.id == 2)
        run = waitingForItsIcon()
        #expect(run.send(.requested(b, completesAtDOMContentLoaded: false)).contains(.iconWaitEnded))
    }

    @Test func theIconWaitEndsWhenThePageCloses() {
        var run = waitingForItsIcon()
        #expect(run.send(.abandoned(load: 1, HeadwayError(.closed, "the page was closed"))) == [
            .cancelTimer(.iconWait), .iconWaitEnded,
        ])
    }

    @Test func anIconWaitForALoadThatIsNotCurrentDoesNotBegin() {
        var run = committed(a)
        run.send(.finished(a), .requested(b, completesAtDOMContentLoaded: false))
        #expect(run.send(.iconWaitBegan(load: 1, icons: ["http://site.test/favicon.ico"])).isEmpty)
    }
}
