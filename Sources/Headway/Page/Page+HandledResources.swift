import Foundation

extension Page {
    // The load's requests (its document left out) with where the scheme handler got each
    // answer, from the requests kept for `entries` (in the same order) and the booster's notes.
    func handledResources(_ entries: [ResourceEntry], record: NavigationTracker.Record) -> [HandledResource] {
        let cacheHits = pageBooster?.cacheHits ?? []
        let joined = pageBooster?.joinedHits ?? []
        let document = Set([record.requested, record.finalURL].compactMap { $0 }
            + record.redirects.flatMap { [$0.from, $0.to] })
        var resources: [HandledResource] = []
        for (index, (request, entry)) in zip(network.requests, entries).enumerated() {
            if index == 0, document.contains(request.url) { continue }
            let source: HandledResource.Source = cacheHits.contains(request.url) ? .cache
                : joined.contains(request.url) ? .joined : .network
            let wait = entry.timings.map(\.wait).flatMap { $0 >= 0 ? $0 : nil }
            resources.append(HandledResource(
                url: request.url, source: source, status: request.status,
                startMs: record.origin.duration(to: request.startedAt).milliseconds, waitMs: wait,
                durationMs: request.ended.map { request.startedAt.duration(to: $0).milliseconds },
                bytes: entry.encodedBodySize))
        }
        return resources
    }
}

extension ResourceSummary {
    // Takes the handler's records, and the count and bytes from them (Resource Timing has no
    // entries for the handler's requests): `transferBytes` counts what came from the network.
    mutating func handle(_ resources: [HandledResource]) {
        handled = resources
        count = resources.count
        encodedBytes = resources.reduce(0) { $0 + $1.bytes }
        transferBytes = resources.filter { $0.source == .network }.reduce(0) { $0 + $1.bytes }
    }
}
