import CWebKit
import Foundation

// One web view's share of the booster: what the scheme handler noted of its current load, the
// fetches it has waiting for their response headers, and the page (or hidden prerendered page)
// that shows the view. Whoever shows the view owns it (`Page`, `Prerender`); it goes with them.
// The handler finds it from a request's web view (`of(_:)`): the view holds only a weak link.
@EngineActor
final class PageBooster {
    // How the handler answered the current load's requests.
    var stats = PrefetchLoadStats()
    // The URLs the current load got from the cache, for its resource entries.
    private(set) var cacheHits: Set<URL> = []
    // The URLs the current load got by joining a prefetch in flight.
    private(set) var joinedHits: Set<URL> = []
    // For the current load, the time from WebKit's request to the response headers the handler
    // handed over, by URL: the `wait` of requests Resource Timing says nothing about.
    private(set) var responseWaits: [URL: Duration] = [:]
    // Fetches waiting for their response headers; the flag marks main-frame ones.
    private var open: [ObjectIdentifier: (request: BoundedRequest, isMainFrame: Bool)] = [:]
    // The page or hidden page that shows the view now.
    weak var owner: (any BoostedView)?

    init(view: UnsafeMutablePointer<WebKitWebView>, owner: any BoostedView) {
        self.owner = owner
        // Released by the destroy notify when the view is finalized.
        let link = Unmanaged.passRetained(Weak(self)).toOpaque()
        g_object_set_data_full(cast(view), Self.key, link, releaseLink)
    }

    // The state of the booster for `view`'s requests, while its owner lives.
    static func of(_ view: UnsafeMutablePointer<WebKitWebView>) -> PageBooster? {
        guard let link = g_object_get_data(cast(view), key) else { return nil }
        return Unmanaged<Weak<PageBooster>>.fromOpaque(link).takeUnretainedValue().object
    }

    private static let key = "headway-page-booster"

    // A new navigation begins: what was noted of the last load is forgotten.
    func resetStats() {
        stats = PrefetchLoadStats()
        cacheHits = []
        joinedHits = []
        responseWaits = [:]
    }

    // Notes that the current load got `url` from the cache.
    func noteCacheHit(_ url: URL) {
        if cacheHits.count < NetworkActivity.keptRecords { cacheHits.insert(url) }
    }

    // Notes that the current load got `url` by joining a prefetch in flight.
    func noteJoined(_ url: URL) {
        if joinedHits.count < NetworkActivity.keptRecords { joinedHits.insert(url) }
    }

    // Notes that the request for `url`, which WebKit handed over at `received`, has its
    // response headers now.
    func noteAnswered(_ url: URL, received: ContinuousClock.Instant) {
        guard responseWaits.count < NetworkActivity.keptRecords else { return }
        responseWaits[url] = received.duration(to: Engine.now())
    }

    // A fetch for the view starts waiting for its response headers.
    func opened(_ request: BoundedRequest, isMainFrame: Bool) {
        open[ObjectIdentifier(request)] = (request, isMainFrame)
    }

    // The fetch has its answer, or failed.
    func closed(_ request: BoundedRequest) {
        open[ObjectIdentifier(request)] = nil
    }

    // Cancels the fetches still waiting for their response headers: all of them when the page
    // stopped loading or closed, or only the main frame's when a new navigation begins.
    func cancelOpenFetches(mainFrameOnly: Bool) {
        for (id, entry) in open where entry.isMainFrame || !mainFrameOnly {
            entry.request.cancel()
            open[id] = nil
        }
    }

    isolated deinit {
        for entry in open.values { entry.request.cancel() }
    }
}

// What the scheme handler asks of the page, or hidden prerendered page, a request came from.
@EngineActor
protocol BoostedView: AnyObject {
    // The navigation generation the view is on now; a main-frame request stamped with an older
    // one belongs to a superseded load and never acts again.
    var navigationGeneration: Int? { get }
    // The view's main document answered with a redirect to `target` (real): WebKitGTK's scheme
    // handlers cannot redirect, so the view navigates there itself.
    func followMainFrameRedirect(to target: URL)
    // Whether a request that may act (not GET or HEAD) is refused: a hidden prerendered page may
    // not act, and is ended when it tries.
    func refusesAction() -> Bool
}

private func releaseLink(_ link: gpointer?) {
    guard let link else { return }
    Unmanaged<Weak<PageBooster>>.fromOpaque(link).release()
}
