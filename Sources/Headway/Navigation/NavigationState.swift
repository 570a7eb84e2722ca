import Foundation

// What the navigation tracker knows, as a value: the main-frame load it follows and the few
// facts about the page's navigations around it. `NavigationTransition` changes it.
struct NavigationState: Equatable, Sendable {
    // The load being followed (or the last one, done).
    var current: NavigationLoad?
    // A finished load whose waiter checks for a client redirect right after it: a navigation the
    // page starts meanwhile continues that load.
    var awaitingClientRedirect: Int?
    // Set while the booster replays a main-frame redirect as a new WebKit load: the cancelled
    // load's failure and FINISHED belong to no one, and its STARTED is the redirect.
    var redirecting: URL?
    // Counts STARTED events and allowed navigation policies, to spot navigations a snippet began.
    var navigationSignals = 0
    // Counts same-document navigations (a fragment, `history.pushState`, a history entry of the
    // same document): the page's own and those Headway asked for.
    var sameDocumentNavigations = 0
    var nextID = 1
    // A finished load waits for its page icon's request to end (see `Page+Icon`).
    var iconWait: IconWait?

    struct IconWait: Equatable, Sendable {
        // The load that waits, and its icons' URLs as WebKit requests them.
        var load: Int
        var icons: Set<String>
    }

    // The current load once WebKit started it and until it is done. Events that arrive for a
    // requested load before its STARTED belong to the load it replaced (WebKit reports the old
    // one's cancellation late); they must not touch the new one.
    var live: NavigationLoad? {
        guard let current, !current.isDone, current.started != nil else { return nil }
        return current
    }
}

// One main-frame load, from request to completion. Times are monotonic ms from `origin`.
struct NavigationLoad: Equatable, Sendable {
    enum Phase: Equatable, Sendable {
        // Asked for; WebKit has not started it yet.
        case requested
        // STARTED came; it runs.
        case loading
        // The page's own navigation cancelled it: the next STARTED continues it as a client redirect.
        case replacedByPage
        // As `replacedByPage`, and its FINISHED came (at `finished`, on `url`): unless a STARTED
        // follows before `NavigationTimer.replacedLoad` fires, the load stands as it was.
        case awaitingReplacement(finished: Duration, url: URL)
        // Completed, with `error` or without.
        case done
    }

    // A navigation the page itself started, allowed by policy (decide-policy reports frames too,
    // so on its own this does not mean the main frame is leaving).
    struct PageNavigation: Equatable, Sendable {
        var url: URL
        var at: ContinuousClock.Instant
    }

    let id: Int
    // The navigation this load belongs to: a client redirect's load keeps the generation of the
    // load it continues; anything else starts a new one.
    let generation: Int
    let requested: URL?
    // When it was requested (or STARTED, for navigations the page began itself); the phase times
    // below are measured from it.
    let origin: ContinuousClock.Instant
    var phase = Phase.requested
    var started: Duration?
    var committed: Duration?
    // When the main frame's DOMContentLoaded fired, once the load committed.
    var domContentLoaded: Duration?
    var finished: Duration?
    var finalURL: URL?
    var error: HeadwayError?
    // Every hop so far, server and client redirects.
    var redirects: [Redirect] = []
    // Main-frame redirects the booster replayed as new WebKit loads.
    var replayedRedirects = 0
    // The latest navigation the page started since this load started.
    var pageNavigation: PageNavigation?
    // Headway (or the user, through `Page.stop()`) stopped this load.
    var stopRequested = false
    // Requests a blocked URL pattern kept off the network during this load.
    var blocked = 0
    // The load counts as done once the main frame's DOMContentLoaded fired.
    var completesAtDOMContentLoaded = false
    // The load counts as done once the main frame committed.
    var completesAtCommit = false
    // Someone waits for this load to complete (and so checks for a client redirect after it).
    var isAwaited = false
    // Requested where WebKit may make it a same-document navigation; and it did: WebKit ended it
    // without starting a load.
    var mayBeSameDocument = false
    var sameDocument = false
    // Requested, the load it replaced ended meanwhile (WebKit reports that late): WebKit is not
    // loading for a moment, which does not make this one a same-document navigation.
    var replacedLoadEnded = false

    var isDone: Bool { phase == .done }

    var replacedByPage: Bool {
        switch phase {
        case .replacedByPage, .awaitingReplacement: true
        default: false
        }
    }

    init(id: Int, requested: URL?, origin: ContinuousClock.Instant, completesAtDOMContentLoaded: Bool = false,
         completesAtCommit: Bool = false) {
        self.id = id
        generation = id
        self.requested = requested
        self.origin = origin
        self.completesAtDOMContentLoaded = completesAtDOMContentLoaded
        self.completesAtCommit = completesAtCommit
    }

    // The load of the client redirect that continues `previous` at `now`: same request, same clock.
    init(id: Int, continuing previous: NavigationLoad, to target: URL, at now: ContinuousClock.Instant) {
        self.id = id
        generation = previous.generation
        requested = previous.requested
        origin = previous.origin
        phase = .loading
        started = now - previous.origin
        finalURL = target
        redirects = previous.redirects + [Redirect(from: previous.finalURL ?? target, to: target, kind: .client)]
        completesAtDOMContentLoaded = previous.completesAtDOMContentLoaded
        completesAtCommit = previous.completesAtCommit
    }
}
