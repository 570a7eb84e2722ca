import Foundation

// The booster as pages and their browser see it: the one interface `Page` and `Browser` use.
// What lies behind it (the prefetcher, the scheme handler, the cache, the prerender pool and the
// booster's HTTP client) is for the booster alone.
extension Booster {
    // Each request the prefetcher makes, once it ended, for `Browser.prefetchReports()`.
    func prefetchReports() -> AsyncStream<PrefetchReport> { prefetcher.reporters.stream() }

    // What the prefetcher did so far, for `Browser.prefetchStats`.
    var runStats: PrefetchRunStats { prefetcher.runStats }

    // The cache directory, if any, for `Browser.flushCacheDirectory`.
    var cacheDirectory: DiskCache? { cache.disk }

    // Starts fetching `url` as a document, ahead of a load (`Browser.preload`).
    func preload(_ url: URL) { handler.fetchEarly(url, page: nil) }

    // A page starts a navigation to `requested` (nil: not known yet, as for a reload): prefetch
    // work that no longer serves it stops, but a fetch of the page it goes to, which it joins
    // (a page still queued is fetched at once); `page`'s main-frame fetches stop, and its notes
    // of the last load are replaced by the bytes prefetched since.
    func navigationStarts(to requested: URL?, in page: PageBooster?) {
        let prioritized = requested.map { prefetcher.prioritize($0) } ?? false
        if !prioritized { prefetcher.cancel(keeping: requested) }
        guard let page else { return }
        handler.cancelFetches(of: page, mainFrameOnly: true)
        page.resetStats()
        page.stats.bytesPrefetched = prefetcher.takeBytesSinceLastLoad()
    }

    // A page stopped loading: its fetches still waiting for their headers stop.
    func pageStopped(_ page: PageBooster) {
        handler.cancelFetches(of: page, mainFrameOnly: false)
    }

    // A load the booster served (a prefetched document or a prerendered view) is counted a hit.
    func countHit() { prefetcher.stats.hits += 1 }

    // The prerendered view of `url`, if one is ready.
    func hasPrerender(of url: URL) -> Bool { prerenders?.hasReady(url) ?? false }

    func takePrerender(of url: URL) -> Prerender? { prerenders?.take(url) }

    // A page shows the prerendered `url`: the prefetch goes on only for it.
    func showsPrerender(of url: URL, replacing page: PageBooster?) {
        prefetcher.cancel(keeping: url)
        if let page { pageClosed(page) }
    }

    // The booster's cookie jar, which its requests send (and a boosted page's `document.cookie`
    // reads): the browser's cookies while it runs.
    func cookies(for url: URL) -> [Cookie] { client.cookies(for: url) }
    func allCookies() -> [Cookie] { client.allCookies() }
    func add(_ cookie: Cookie) { client.add(cookie) }
    func delete(_ cookie: Cookie) { client.delete(cookie) }
}
