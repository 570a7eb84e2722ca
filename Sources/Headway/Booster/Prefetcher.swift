import CWebKit
import Foundation

/// Prefetches what a page links to, in the seed's four stages: the linked HTML pages; the images
/// and scripts they reference; their CSS; the images and `@import`s in that CSS. Each stage's
/// requests run in parallel, at most `concurrency` at once across the whole browser. Requests are
/// GET only, carry `Sec-Purpose: prefetch`, and stay within the byte budget and response cap.
@EngineActor
final class Prefetcher {
    let client: SoupClient
    let cache: PrefetchCache
    let configuration: BoosterConfiguration
    private(set) var stats = PrefetchRunStats()
    private var current: Task<Void, Never>?
    private var generation = 0
    private var activeFetches = 0
    private var slotWaiters: [CheckedContinuation<Void, Never>] = []

    init(client: SoupClient, cache: PrefetchCache, configuration: BoosterConfiguration) {
        self.client = client
        self.cache = cache
        self.configuration = configuration
    }

    /// Starts prefetching from `links` found on `page`, replacing any earlier run.
    func start(links: [LinkPolicy.Link], page: URL) {
        cancel()
        let policy = LinkPolicy(configuration: configuration)
        let pages = policy.eligible(links, page: page)
        stats.linksFound += links.count
        stats.linksEligible += pages.count
        let run = generation
        current = Task { await self.run(pages: pages, page: page, generation: run) }
    }

    /// Stops scheduling prefetches (a new navigation no longer needs them). Fetches already in
    /// flight finish, so a navigation can still join them; everything cached stays.
    func cancel() {
        generation += 1
        current?.cancel()
        current = nil
    }

    /// Waits until the current run has nothing left to do, or `timeout` seconds pass.
    func settle(timeout: Double) async {
        guard let current else { return }
        let timer = Task { try await Task.sleep(for: .clamped(seconds: timeout)); current.cancel() }
        await current.value
        timer.cancel()
    }

    var runStats: PrefetchRunStats {
        var stats = self.stats
        stats.bytesUnused = cache.unusedBytes
        return stats
    }

    private func run(pages: [URL], page: URL, generation run: Int) async {
        let budget = Budget(remaining: configuration.byteBudget)
        let policy = LinkPolicy(configuration: configuration)
        let documents = await fetchAll(pages, isPage: true, budget: budget, generation: run)
        var media: [URL] = [], sheets: [URL] = []
        for document in documents where isHTML(document) {
            let charset = AssetExtractor.charset(fromContentType: headerValue(document.headers, "Content-Type"))
            let body = document.body, url = document.url
            // Parsing runs on a worker thread, never on the engine thread.
            let assets = await Task.detached { AssetExtractor.html(body, url: url, charset: charset) }.value
            media += assets.media.filter { policy.allows($0, page: page, isSubresource: true) }
            sheets += assets.stylesheets.filter { policy.allows($0, page: page, isSubresource: true) }
        }
        _ = await fetchAll(unique(media), isPage: false, budget: budget, generation: run)
        let styles = await fetchAll(unique(sheets), isPage: false, budget: budget, generation: run)
        var cssRefs: [URL] = []
        for sheet in styles {
            let text = String(decoding: sheet.body, as: UTF8.self), url = sheet.url
            let refs = await Task.detached { AssetExtractor.css(text, url: url) }.value
            cssRefs += (refs.images + refs.imports).filter { policy.allows($0, page: page, isSubresource: true) }
        }
        _ = await fetchAll(unique(cssRefs), isPage: false, budget: budget, generation: run)
    }

    private func fetchAll(_ urls: [URL], isPage: Bool, budget: Budget, generation run: Int) async -> [CachedResponse] {
        var tasks: [Task<CachedResponse?, Never>] = []
        for url in urls {
            guard run == generation, !Task.isCancelled else { break }
            guard budget.remaining > 0 else {
                stats.skipped += 1
                continue
            }
            await acquireSlot()
            guard run == generation, !Task.isCancelled, budget.remaining > 0 else {
                releaseSlot()
                continue
            }
            let limit = min(configuration.maxResponseBytes, budget.remaining)
            tasks.append(Task { @EngineActor in
                let response = await self.fetch(url, limit: limit, isPage: isPage)
                self.fetched(response, budget: budget)
                return response
            })
        }
        var results: [CachedResponse] = []
        for task in tasks {
            if let response = await task.value { results.append(response) }
        }
        return results
    }

    /// Fetches one URL into the cache, or returns what is cached or in flight for it.
    private func fetch(_ url: URL, limit: Int, isPage: Bool) async -> CachedResponse? {
        if let task = cache.fetchInFlight(url) { return await task.value }
        if cache.contains(url) { return nil }
        // The task stores its result before it completes, so whoever joined it finds it cached.
        let task = Task { @EngineActor in
            let response = await self.download(url, limit: limit, isPage: isPage)
            self.cache.end(url, response)
            return response
        }
        cache.begin(url, task)
        let response = await task.value
        if let response {
            stats.bytesPrefetched += response.body.count
            if isPage { stats.pagesPrefetched += 1 } else { stats.resourcesPrefetched += 1 }
        } else {
            stats.skipped += 1
        }
        return response
    }

    private func download(_ url: URL, limit: Int, isPage: Bool) async -> CachedResponse? {
        // The headers WebKit sends for such a request, so that `Vary` matches what the page asks.
        let headers = BrowserHeaders.completing([
            ("Accept", isPage ? "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" : "*/*"),
        ]) + [("Sec-Purpose", "prefetch")]
        var stale: CachedResponse?
        if case .stale(let entry)? = cache.lookup(url, requestHeaders: client.outgoingHeaders(headers, to: url), use: false) {
            stale = entry
        }
        do {
            let response = try await client.send(method: "GET", url: url, headers: headers + (stale?.conditionalHeaders ?? []),
                                                 body: nil, followRedirects: true, cancellable: nil)
            if let stale, response.status == 304 {
                stats.revalidated += 1
                return cache.revalidated(stale, notModified: response.headers, use: false)
            }
            guard let lifetime = CachePolicy.lifetime(method: "GET", status: response.status, headers: response.headers) else {
                return nil
            }
            if let length = response.header("Content-Length").flatMap(Int.init), length > limit { return nil }
            let body = try await client.readAll(response.stream, limit: limit, cancellable: nil)
            if let stale { cache.remove(stale) }
            var vary: [String: String] = [:]
            for name in CachePolicy.varyNames(response.headers) {
                vary[name] = headerValue(response.requestHeaders, name) ?? ""
            }
            return CachedResponse(url: response.finalURL, status: response.status,
                                  headers: CachePolicy.storedHeaders(response.headers), body: body,
                                  varyValues: vary, storedAt: Engine.now(), lifetime: lifetime)
        } catch {
            return nil
        }
    }

    private func acquireSlot() async {
        if activeFetches < configuration.concurrency {
            activeFetches += 1
            return
        }
        await withCheckedContinuation { slotWaiters.append($0) }
    }

    private func releaseSlot() {
        if slotWaiters.isEmpty {
            activeFetches -= 1
        } else {
            slotWaiters.removeFirst().resume()
        }
    }

    private func fetched(_ response: CachedResponse?, budget: Budget) {
        budget.remaining -= response?.body.count ?? 0
        releaseSlot()
    }

    /// Bytes a run may still fetch.
    @EngineActor
    final class Budget {
        var remaining: Int
        init(remaining: Int) { self.remaining = remaining }
    }

    private func isHTML(_ response: CachedResponse) -> Bool {
        headerValue(response.headers, "Content-Type")?.lowercased().contains("html") ?? false
    }

    private func unique(_ urls: [URL]) -> [URL] {
        var seen = Set<URL>()
        return urls.filter { seen.insert($0).inserted }
    }
}
