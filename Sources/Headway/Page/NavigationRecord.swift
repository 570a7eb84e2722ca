import Foundation

extension NavigationTracker {
    // One main-frame load the tracker follows, from request to completion.
    final class Record {
        let id: Int
        // The navigation this record belongs to: a client redirect's record keeps the
        // generation of the load it continues; anything else starts a new one.
        let generation: Int
        let requested: URL?
        // Monotonic ms at the request (or at STARTED for navigations the page began itself).
        let origin: Double
        var started: Double?
        var committed: Double?
        var finished: Double?
        var finalURL: URL?
        var error: HeadwayError?
        var isDone = false
        // Every hop so far, server and client redirects.
        var redirects: [Redirect] = []
        // Main-frame redirects the booster replayed as new WebKit loads.
        var replayedRedirects = 0
        // The latest navigation the page itself started since this record started (decide-policy
        // reports frames too, so on its own this does not mean the main frame is leaving).
        var pageNavigation: (url: URL, at: Double)?
        // The load was cancelled by a navigation the page started: the next STARTED continues it.
        var cancelledByPage = false
        // Headway (or the user, through `Page.stop()`) stopped this load.
        var stopRequested = false
        // Requests a blocked URL pattern kept off the network during this load.
        var blocked = 0
        // The load counts as done once the main frame's DOMContentLoaded fired.
        var completesAtDOMContentLoaded = false
        var waiters: [@EngineActor () -> Void] = []

        init(id: Int, requested: URL?, origin: Double) {
            self.id = id
            generation = id
            self.requested = requested
            self.origin = origin
        }

        // A record for the client redirect that continues `previous`: same request, same clock.
        init(id: Int, continuing previous: Record, to target: URL) {
            self.id = id
            generation = previous.generation
            requested = previous.requested
            origin = previous.origin
            started = Engine.now() - previous.origin
            finalURL = target
            redirects = previous.redirects + [Redirect(from: previous.finalURL ?? target, to: target, kind: .client)]
            completesAtDOMContentLoaded = previous.completesAtDOMContentLoaded
        }
    }
}
