import Foundation

// One run of the prefetcher, for the links of one page: what it fetches next and the bytes it
// may still spend.
@EngineActor
final class PrefetchRun {
    let page: URL
    // The prefetcher's generation when the run began; a later one means the run was replaced.
    let generation: Int
    // What the run fetches next, in order: linked pages (most likely followed first), then
    // each subresource stage in turn.
    var queue: [URL]
    // Whether `queue` holds linked pages (stage 1) rather than subresources.
    var isPageStage = true
    // Pages for a second pass, likeliest first, once the first pass (the hinted pages, or the
    // likeliest one) and its subresources are done: under `.moderate` eagerness.
    var later: [URL] = []
    // Pages of the first pass the cache already held: their documents count in what a next page needs.
    var cachedPages: [URL] = []
    // Whether the budget is sized to the page after the first pass (`sizedBudget`).
    var sizesBudget = false
    // Once sized: the mean size of the first pass's documents, taken from the budget as each
    // later page's fetch begins (until its `Content-Length`, or its end, says what it takes).
    var expectedPageBytes: Int?
    // Pages already in flight whose documents the run waits for, for their subresources.
    var joining: [URL]
    // Bytes the run may still fetch.
    var budget: Int
    // Bytes the run fetched, and of those, the subresources'.
    var spent = 0
    var subresourceBytes = 0
    // Whether the run's fetches wait for the browser-wide concurrency limit. A run that fetches
    // for a navigation does not: it stands in for requests the navigation would make itself.
    var usesSlots = true
    // The run's requests in flight, by URL; stopping the run cancels them.
    var requests: [URL: BoundedRequest] = [:]

    init(page: URL, generation: Int, pages: [URL], joining: [URL], budget: Int) {
        self.page = page
        self.generation = generation
        queue = pages
        self.joining = joining
        self.budget = budget
    }
}
