import CWebKit
import Foundation

// Prefetches what a page links to, in four stages: the linked HTML pages; the images
// and scripts they reference; their CSS; the images and `@import`s in that CSS. Each stage's
// requests run in parallel, at most `concurrency` at once across the whole browser. Pages go in
// the order a person is likely to follow them (see `LinkPolicy.select`), and each stage serves
// them in that order, so the byte budget cuts the least likely. Requests are GET only, carry
// `Sec-Purpose: prefetch`, and stay within the byte budget and response cap.
@EngineActor
final class Prefetcher {
    let client: SoupClient
    let cache: PrefetchCache
    let configuration: BoosterConfiguration
    // The `concurrency` requests at once, across the whole browser.
    let slots: AsyncSemaphore
    var stats = PrefetchRunStats()
    // Who hears of each request once it ended.
    let reporters = PrefetchReporters()
    private(set) var generation = 0
    private var run: PrefetchRun?
    private var current: Task<Void, Never>?
    // Requests of a stopped run that a navigation to their URL joins (see `cancel(keeping:)`).
    private var kept: [URL: BoundedRequest] = [:]

    init(client: SoupClient, cache: PrefetchCache, configuration: BoosterConfiguration) {
        self.client = client
        self.cache = cache
        self.configuration = configuration
        slots = AsyncSemaphore(permits: configuration.concurrency)
    }

    // Starts prefetching from `links` found on `page`, replacing any earlier run.
    // `shown`: whether a page loaded a URL as its document lately (it is not fetched again).
    func start(links: [LinkPolicy.Link], page: URL, shown: (URL) -> Bool = { _ in false }) {
        cancel()
        let selection = LinkPolicy(configuration: configuration).select(links, page: page) {
            self.cache.contains($0) || shown($0)
        }
        stats.linksFound += links.count
        stats.linksLeftOut = stats.linksLeftOut + selection.leftOut
        let first: Int
        switch configuration.eagerness {
        case .conservative, .eager: first = selection.pages.count
        case .moderate: first = selection.hinted > 0 ? selection.hinted : min(1, selection.pages.count)
        }
        let run = PrefetchRun(page: page, generation: generation, pages: Array(selection.pages[..<first]),
                              joining: selection.known,
                              budget: configuration.byteBudget ?? BoosterConfiguration.defaultByteCeiling)
        run.later = Array(selection.pages[first...])
        run.cachedPages = selection.known.filter { cache.fetchInFlight($0) == nil && cache.storedSize($0) != nil }
        run.sizesBudget = configuration.eagerness == .moderate && configuration.byteBudget == nil
        begin(run)
    }

    // Bytes prefetched since the last call: what the booster fetched ahead of the load that asks.
    func takeBytesSinceLastLoad() -> Int {
        defer { bytesAtLastLoad = stats.bytesPrefetched }
        return stats.bytesPrefetched - bytesAtLastLoad
    }

    private var bytesAtLastLoad = 0
    // What the last sized budget took a next page to need, in bytes (for tests).
    var lastNeedEstimate: Int?

    // If `url` is a page the current run has queued but not started, fetches it at once, then
    // its subresources, and drops the rest of the run that has not started: a navigation to
    // `url` joins those fetches and needs nothing else. Returns false, changing nothing, otherwise.
    func prioritize(_ url: URL) -> Bool {
        guard let run, run.budget > 0,
              let url = AssetExtractor.resolve(url.absoluteString, against: url), !cache.contains(url)
        else { return false }
        if run.isPageStage, let index = run.queue.firstIndex(of: url) {
            run.queue.remove(at: index)
        } else if let index = run.later.firstIndex(of: url) {
            run.later.remove(at: index)
        } else {
            return false
        }
        cancel()
        let focused = PrefetchRun(page: run.page, generation: generation, pages: [], joining: [url], budget: run.budget)
        focused.usesSlots = false
        stats.linksEligible += 1
        _ = fetch(url, isPage: true, for: focused, holdingSlot: false)
        begin(focused)
        return true
    }

    // Stops prefetching (a new navigation no longer needs it): nothing more is scheduled and
    // the requests in flight are cancelled, all but the one for `url`, which a navigation there
    // joins. Everything cached stays.
    func cancel(keeping url: URL? = nil) {
        generation += 1
        current?.cancel()
        current = nil
        let key = url.flatMap { AssetExtractor.resolve($0.absoluteString, against: $0) }
        if let run {
            drop(run)
            for (target, request) in run.requests {
                if target == key { kept[target] = request } else { request.cancel() }
            }
            run.requests.removeAll()
        }
        for (target, request) in kept where target != key {
            request.cancel()
            kept[target] = nil
        }
        run = nil
    }

    // Waits until the current run has nothing left to do, or `timeout` passes: then the
    // run is cancelled with every request in flight, so nothing outlives the settle. Returns
    // early, leaving the run alone, when the task is cancelled.
    func settle(timeout: Duration) async {
        guard let current else { return }
        if (try? await EngineWait.ended(current, within: timeout)) == false { cancel() }
    }

    var runStats: PrefetchRunStats {
        var stats = self.stats
        // Pages the running prefetch chose and has not reached yet.
        if let run, isCurrent(run) {
            stats.linksLeftOut[.queued] = run.later.count + (run.isPageStage ? run.queue.count : 0)
        }
        stats.bytesUnused = cache.unusedBytes
        stats.bytesUsed = cache.usedPrefetchedBytes
        return stats
    }

    private func begin(_ run: PrefetchRun) {
        self.run = run
        current = Task { await self.perform(run) }
    }

    // Counts the pages `run` has not started as cancelled and forgets them (with `later`, those
    // of its second pass too).
    func drop(_ run: PrefetchRun, later: Bool = true) {
        if later {
            stats.linksLeftOut[.cancelled] += run.later.count
            run.later.removeAll()
        }
        guard run.isPageStage else { return }
        stats.linksLeftOut[.cancelled] += run.queue.count
        run.queue.removeAll()
    }

    // Starts fetching `url` into the cache, registered there at once so that others join it,
    // and charges it to `run`'s budget.
    func fetch(_ url: URL, isPage: Bool, for run: PrefetchRun, holdingSlot: Bool) -> Task<CachedResponse?, Never> {
        let request = BoundedRequest(timeout: configuration.requestTimeout)
        run.requests[url] = request
        // A page of a sized run takes what a page is expected to take at once (see `download`).
        let ahead = isPage ? min(run.expectedPageBytes ?? 0, max(0, run.budget)) : 0
        run.budget -= ahead
        // The task stores its result before it completes, so whoever joined it finds it cached.
        let task = Task { @EngineActor in
            let (response, tooLarge, reserved) = await self.download(
                url,
                run: run,
                isPage: isPage,
                page: run.page,
                request: request,
                ahead: ahead
            )
            request.finish()
            if run.requests[url] === request { run.requests[url] = nil }
            if self.kept[url] === request { self.kept[url] = nil }
            self.cache.end(url, response)
            if tooLarge, run.budget + reserved < self.configuration.maxResponseBytes {
                // Refused under a limit below the cap, it may not have fit what was left: the budget
                // ends here, rather than every later request going out to be refused too.
                run.budget = 0
            } else {
                run.budget -= (response?.body.count ?? 0) - reserved
            }
            run.spent += response?.body.count ?? 0
            if !isPage { run.subresourceBytes += response?.body.count ?? 0 }
            if holdingSlot { self.slots.signal() }
            if let response {
                self.stats.bytesPrefetched += response.body.count
                if isPage { self.stats.pagesPrefetched += 1 } else { self.stats.resourcesPrefetched += 1 }
            } else {
                self.stats.skipped += 1
            }
            if !self.reporters.isEmpty {
                self.reporters.report(PrefetchReport(url: response?.url ?? url, page: run.page, isPage: isPage,
                                                     status: response?.status, bytes: response?.body.count ?? 0))
            }
            return response
        }
        cache.begin(url, task)
        return task
    }
}
