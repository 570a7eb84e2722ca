import Foundation

// What happens to a page's main-frame navigations, as the tracker hears it: WebKit's load
// events, its policy decisions, Headway's own requests, and the tracker's timers.
enum NavigationEvent: Equatable, Sendable {
    // Headway asks WebKit for a load (`load`, `reload`, history, a prerender).
    // `mayBeSameDocument`: WebKit may make it a same-document navigation (a fragment of the
    // document shown, a history entry).
    case requested(URL?, completesAtDOMContentLoaded: Bool, completesAtCommit: Bool = false,
                   mayBeSameDocument: Bool = false)
    // WebKit's load-changed: STARTED, REDIRECTED, COMMITTED, FINISHED.
    case started(URL)
    case redirected(URL)
    case committed(URL)
    case finished(URL)
    // WebKit's load-failed (FINISHED follows); an `.engine` error (the network process ended)
    // fails the load at once.
    case failed(URL?, HeadwayError)
    // The page's web process crashed or was terminated: the load fails at once with `.engine`.
    case webProcessEnded(HeadwayError)
    // The main document's response is no page (a 204, a download, not a document): the load
    // fails with this error rather than with the policy interruption WebKit reports next.
    case notAPage(HeadwayError)
    // A navigation decide-policy allowed: the page's own (a client redirect, a JS navigation, a
    // meta refresh) once the current load started. Frames' navigations come this way too.
    case navigationAllowed(URL)
    // The navigation delegate refused a navigation to this URL.
    case navigationRefused(URL)
    // The booster replays a main-frame redirect to this URL as a new WebKit load.
    case replayingRedirect(URL)
    // The booster is about to replay a redirect: counted against WebKit's own limit.
    case replayedRedirectCounted
    // A server redirect of the load leads out of http(s), to this URL.
    case redirectRefused(URL)
    // A request kept off the network by a blocked URL pattern.
    case blocked(URL)
    // The main frame's DOMContentLoaded fired.
    case domContentLoaded
    // WebKit stopped loading (the view's is-loading went false), showing this URL.
    case loadingStopped(URL?)
    // The URL the view shows changed.
    case urlChanged(URL)
    // The view's back/forward list gained an entry for this URL.
    case historyItemAdded(URL)
    // A follower of this load counts it done at `condition` (or now, when it is past it).
    case completes(load: Int, at: LoadCondition)
    // `Page.stop()`: the cancellation WebKit reports next is a failure, not a client redirect.
    case stop
    // Someone waits for this load to complete.
    case awaited(load: Int)
    // The waiter of this load is done checking for a client redirect after it.
    case clientRedirectCheckEnded(load: Int)
    // This load ran out of its time (`seconds`), or its waiter gave up on it with this error.
    case timedOut(load: Int, after: Duration)
    case abandoned(load: Int, HeadwayError)
    case timerFired(NavigationTimer)
    // A finished load waits for the request for its page icon (one of `icons`) to end; none of
    // them is in flight any more; the waiter gave up (its deadline, its task cancelled).
    case iconWaitBegan(load: Int, icons: Set<String>)
    case iconRequestsEnded
    case iconWaitAbandoned
}

// What the tracker's shell does after a transition.
enum NavigationEffect: Equatable, Sendable {
    // The load completed (`load.error` says how): resume whoever waits for it.
    case complete(NavigationLoad)
    // A new load began: wake whoever waits for the next one.
    case began(Int)
    // A main-frame commit: wake whoever waits for the next document.
    case commitSeen
    // A same-document navigation of the page's own: wake whoever waits for a navigation.
    case sameDocumentSeen
    // A same-document navigation (the page's own, or a load that turned out one) to the URL:
    // tell the delegate.
    case sameDocument(URL)
    // This STARTED continues the load at the URL (a client or replayed redirect): report a redirect,
    // not a new navigation.
    case reportRedirect(URL)
    // This FINISHED or failure belongs to a load that was replaced: report nothing.
    case unowned
    case startTimer(NavigationTimer)
    case cancelTimer(NavigationTimer)
    // The icon wait is over: resume whoever waits for it.
    case iconWaitEnded
}

// The tracker's timers.
enum NavigationTimer: Equatable, Hashable, Sendable {
    // Runs from the FINISHED of a load the page's own navigation cancelled.
    case replacedLoad
    // Runs from the start of an icon wait.
    case iconWait

    var duration: Duration {
        switch self {
        case .replacedLoad: NavigationTiming.replacedLoadStart
        case .iconWait: NavigationTiming.iconWait
        }
    }
}
