import Foundation

extension Prefetcher {
    // Runs `run`: the four stages for its first pages, then, if it has a second pass, the
    // budget sized to the page (under `.moderate` with no explicit budget) and the four stages
    // for those pages.
    // A first page that gives nothing to measure (refused, failed, not storable) is followed by
    // the next likeliest, one at a time, until one does.
    func perform(_ run: PrefetchRun) async {
        var documents = await stages(run)
        while isCurrent(run), run.sizesBudget, documents.isEmpty, run.cachedPages.isEmpty, !run.later.isEmpty {
            run.isPageStage = true
            run.queue = [run.later.removeFirst()]
            documents = await stages(run)
        }
        guard isCurrent(run), !run.later.isEmpty else { return }
        if run.sizesBudget { run.budget = min(run.budget, sizedBudget(run, documents: documents) - run.spent) }
        run.isPageStage = true
        run.queue = run.later
        run.later = []
        _ = await stages(run)
    }

    // About 4 times what the likeliest next page needs beyond what is cached: the mean size of
    // the first pass's documents (fetched, joined or already cached) and the subresources
    // fetched for them, per page. 0 when there is nothing to measure.
    func sizedBudget(_ run: PrefetchRun, documents: [CachedResponse]) -> Int {
        let sizes = documents.map(\.body.count) + run.cachedPages.compactMap { cache.storedSize($0) }
        guard !sizes.isEmpty else { return 0 }
        let need = (sizes.reduce(0, +) + run.subresourceBytes) / sizes.count
        lastNeedEstimate = need
        run.expectedPageBytes = sizes.reduce(0, +) / sizes.count
        return Self.budgetFactor * need
    }

    // How many times what a next page needs the default budget allows.
    static let budgetFactor = 4

    // The four stages for `run`'s queue of pages: the pages; their images and scripts; their
    // CSS; the images and imports in that CSS. Returns the pages' documents.
    private func stages(_ run: PrefetchRun) async -> [CachedResponse] {
        let policy = LinkPolicy(configuration: configuration)
        let documents = await drain(run)
        guard isCurrent(run) else { return documents }
        var media: [URL] = [], sheets: [URL] = []
        for document in documents where isHTML(document) {
            let charset = AssetExtractor.charset(fromContentType: headerValue(document.headers, "Content-Type"))
            let body = document.body, url = document.url
            // Parsing runs on a worker thread, never on the engine thread.
            let assets = await Task.detached { AssetExtractor.html(body, url: url, charset: charset) }.value
            media += assets.media.filter { policy.allows($0, page: run.page, isSubresource: true) }
            sheets += assets.stylesheets.filter { policy.allows($0, page: run.page, isSubresource: true) }
        }
        run.isPageStage = false
        run.queue = unique(media)
        _ = await drain(run)
        run.queue = unique(sheets)
        let styles = await drain(run)
        var cssRefs: [URL] = []
        for sheet in styles {
            let text = String(decoding: sheet.body, as: UTF8.self), url = sheet.url
            let refs = await Task.detached { AssetExtractor.css(text, url: url) }.value
            cssRefs += (refs.images + refs.imports).filter { policy.allows($0, page: run.page, isSubresource: true) }
        }
        run.queue = unique(cssRefs)
        _ = await drain(run)
        return documents
    }

    // Fetches `run`'s queue in order, at most `concurrency` at once (see `usesSlots`). What is
    // already in flight is joined and what is cached is passed over, without taking a slot.
    // Returns the responses in order.
    private func drain(_ run: PrefetchRun) async -> [CachedResponse] {
        var tasks = run.joining.compactMap { cache.fetchInFlight($0) }
        run.joining = []
        while isCurrent(run), let url = run.queue.first {
            if cache.contains(url) || run.budget <= 0 {
                run.queue.removeFirst()
                passOver(url, run, joining: &tasks)
                continue
            }
            if run.usesSlots {
                // Cancelled while waiting: the run is over.
                do { try await slots.wait() } catch { break }
            }
            guard isCurrent(run), !cache.contains(url), run.budget > 0 else {
                if run.usesSlots { slots.signal() }
                continue
            }
            run.queue.removeFirst()
            if run.isPageStage { stats.linksEligible += 1 }
            tasks.append(fetch(url, isPage: run.isPageStage, for: run, holdingSlot: run.usesSlots))
        }
        drop(run, later: false)
        var responses: [CachedResponse] = []
        for task in tasks {
            if let response = await task.value { responses.append(response) }
        }
        return responses
    }

    private func passOver(_ url: URL, _ run: PrefetchRun, joining tasks: inout [Task<CachedResponse?, Never>]) {
        if let flight = cache.fetchInFlight(url) { tasks.append(flight) }
        if cache.contains(url) {
            if run.isPageStage { stats.linksLeftOut[.alreadyPrefetched] += 1 }
        } else {
            stats.skipped += 1
            if run.isPageStage { stats.linksLeftOut[.budget] += 1 }
        }
    }

    func isCurrent(_ run: PrefetchRun) -> Bool {
        run.generation == generation && !Task.isCancelled
    }

    private func isHTML(_ response: CachedResponse) -> Bool {
        headerValue(response.headers, "Content-Type")?.lowercased().contains("html") ?? false
    }

    private func unique(_ urls: [URL]) -> [URL] {
        var seen = Set<URL>()
        return urls.filter { seen.insert($0).inserted }
    }
}
