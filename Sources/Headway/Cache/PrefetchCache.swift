import Foundation

// A stored response.
struct CachedResponse: Sendable {
    var url: URL
    var status: Int
    var headers: HeaderList
    var body: Data
    // Request header values for the names in `Vary`, as they went out (absent ones as "").
    var varyValues: [String: String]
    // When it was stored or last revalidated, and how long it stays fresh from then.
    var storedAt: ContinuousClock.Instant
    var lifetime: Duration
    var wasUsed = false
    // Whether the prefetcher stored it (not the handler, for a page that loaded it).
    var prefetched = false
    // Cookies the prefetch got (never in `headers`), committed when a page is served this entry.
    var cookies: [SetCookie] = []
    // Whether the disk cache holds this very response (it was read from there): storing it
    // again writes nothing.
    var persisted = false

    func isFresh(at now: ContinuousClock.Instant) -> Bool { storedAt.duration(to: now) < lifetime }

    // Whether a stale copy can be revalidated rather than fetched again.
    var hasValidator: Bool { headerValue(headers, "ETag") != nil || headerValue(headers, "Last-Modified") != nil }

    // `If-None-Match` / `If-Modified-Since` for revalidating this response.
    var conditionalHeaders: HeaderList {
        var headers: HeaderList = []
        if let etag = headerValue(self.headers, "ETag") { headers.append(("If-None-Match", etag)) }
        if let modified = headerValue(self.headers, "Last-Modified") { headers.append(("If-Modified-Since", modified)) }
        return headers
    }

    // Whether this response was stored for requests carrying `requestHeaders` (lower-cased names).
    // `varyValues` never holds `Accept-Encoding` (see `CachePolicy.variantNames`).
    func matches(_ requestHeaders: [String: String]) -> Bool {
        varyValues.allSatisfy { (requestHeaders[$0.key] ?? "") == $0.value }
    }
}

// The prefetch cache: in memory, keyed by final URL (and the `Vary` request headers), bounded in
// bytes with least-recently-used eviction. A URL is either *in flight* (a fetch others can join)
// or *ready* (stored responses). A stale response with a validator stays until evicted, so it can
// be revalidated with a conditional request. With a `DiskCache`, whatever is stored is also
// written to disk, in the background.
@EngineActor
final class PrefetchCache {
    enum Lookup {
        case fresh(CachedResponse)
        /// Past its freshness; revalidate it with `conditionalHeaders` before use.
        case stale(CachedResponse)
    }

    let capacity: Int
    private(set) var bytes = 0
    private var entries: [URL: [CachedResponse]] = [:]
    private var order: [URL] = []
    private var inFlight: [URL: Task<CachedResponse?, Never>] = [:]
    // Bytes of entries evicted or expired before anything used them.
    private(set) var unusedEvictedBytes = 0
    // Bytes of prefetched entries that a page used, each entry counted once.
    private(set) var usedPrefetchedBytes = 0
    // The cache on disk, if any: the handler and the prefetcher consult it when this one misses.
    let disk: DiskCache?

    init(capacity: Int, disk: DiskCache? = nil) {
        self.capacity = capacity
        self.disk = disk
    }

    // The stored response for `url` whose `Vary` headers match `requestHeaders` (lower-cased
    // names, as the request would go out). A fresh one counts as used when `use` is set.
    func lookup(_ url: URL, requestHeaders: [String: String], use: Bool = true) -> Lookup? {
        let now = Engine.now()
        guard var variants = entries[url] else { return nil }
        let dropped = variants.filter { !$0.isFresh(at: now) && !$0.hasValidator }
        if !dropped.isEmpty {
            for entry in dropped where !entry.wasUsed { unusedEvictedBytes += entry.body.count }
            bytes -= dropped.reduce(0) { $0 + $1.body.count }
            variants.removeAll { !$0.isFresh(at: now) && !$0.hasValidator }
            entries[url] = variants.isEmpty ? nil : variants
        }
        guard let index = variants.firstIndex(where: { $0.matches(requestHeaders) }) else { return nil }
        guard variants[index].isFresh(at: now) else { return .stale(variants[index]) }
        if use {
            let entry = variants[index]
            if entry.prefetched, !entry.wasUsed { usedPrefetchedBytes += entry.body.count }
            variants[index].wasUsed = true
            entries[url] = variants
            touch(url)
        }
        return .fresh(variants[index])
    }

    // The size of a body stored for `url`, fresh or not.
    func storedSize(_ url: URL) -> Int? { entries[url]?.first?.body.count }

    // Whether `url` has a fresh stored response or a fetch in flight.
    func contains(_ url: URL) -> Bool {
        let now = Engine.now()
        return inFlight[url] != nil || entries[url]?.contains { $0.isFresh(at: now) } == true
    }

    func fetchInFlight(_ url: URL) -> Task<CachedResponse?, Never>? { inFlight[url] }

    // Registers a fetch; the cache stores its result, if any, when it completes.
    func begin(_ url: URL, _ task: Task<CachedResponse?, Never>) {
        inFlight[url] = task
    }

    func end(_ url: URL, _ response: CachedResponse?) {
        inFlight[url] = nil
        guard let response else { return }
        store(response, under: url)
        if response.url != url { store(response, under: response.url) }
    }

    // Makes a stale response fresh again after a 304: its headers are updated from the 304's
    // (RFC 9111 §4.3.4) and its lifetime restarts. Returns the refreshed response, or nil when
    // the updated headers forbid storing it.
    func revalidated(_ stale: CachedResponse, notModified headers: HeaderList, use: Bool) -> CachedResponse? {
        var response = stale
        let updates = CachePolicy.storedHeaders(headers)
        let names = Set(updates.map { $0.0.lowercased() })
        response.headers = stale.headers.filter { !names.contains($0.0.lowercased()) } + updates
        response.storedAt = Engine.now()
        response.wasUsed = stale.wasUsed || use
        if use, stale.prefetched, !stale.wasUsed { usedPrefetchedBytes += stale.body.count }
        response.persisted = false
        guard let lifetime = CachePolicy.lifetime(method: "GET", status: stale.status, headers: response.headers) else {
            remove(stale)
            return nil
        }
        response.lifetime = lifetime
        store(response, under: stale.url)
        return response
    }

    // Forgets the cookies held with `response` (under every URL it is stored for) once they
    // were committed, so that serving it again never sets them a second time.
    func forgetCookies(of response: CachedResponse) {
        func same(_ entry: CachedResponse) -> Bool {
            entry.url == response.url && entry.varyValues == response.varyValues
        }
        for (key, variants) in entries where variants.contains(where: same) {
            entries[key] = variants.map { entry in
                var entry = entry
                if same(entry) { entry.cookies = [] }
                return entry
            }
        }
    }

    // Drops the stored variant `response` (a revalidation got a new representation).
    func remove(_ response: CachedResponse) {
        disk?.remove(response, under: response.url)
        guard var variants = entries[response.url],
              let index = variants.firstIndex(where: { $0.varyValues == response.varyValues }) else { return }
        bytes -= variants[index].body.count
        variants.remove(at: index)
        entries[response.url] = variants.isEmpty ? nil : variants
    }

    // Stores `response` under `url` (a response the handler fetched, or one read from disk).
    func insert(_ response: CachedResponse, under url: URL) {
        store(response, under: url)
        if response.url != url { store(response, under: response.url) }
    }

    private func store(_ response: CachedResponse, under url: URL) {
        guard response.body.count <= capacity else { return }
        if !response.persisted { disk?.save(response, under: url) }
        var variants = entries[url] ?? []
        if let old = variants.firstIndex(where: { $0.varyValues == response.varyValues }) {
            bytes -= variants[old].body.count
            variants.remove(at: old)
        }
        variants.append(response)
        entries[url] = variants
        bytes += response.body.count
        touch(url)
        while bytes > capacity, let oldest = order.first {
            order.removeFirst()
            for entry in entries[oldest] ?? [] {
                bytes -= entry.body.count
                if !entry.wasUsed { unusedEvictedBytes += entry.body.count }
            }
            entries[oldest] = nil
        }
    }

    // Drops every entry (for cold repeats). Fetches in flight still finish and store.
    func removeAll() {
        entries.removeAll()
        order.removeAll()
        bytes = 0
        unusedEvictedBytes = 0
        usedPrefetchedBytes = 0
    }

    // Bytes stored that nothing has used yet.
    var unusedBytes: Int {
        entries.values.joined().filter { !$0.wasUsed }.reduce(0) { $0 + $1.body.count } + unusedEvictedBytes
    }

    private func touch(_ url: URL) {
        order.removeAll { $0 == url }
        order.append(url)
    }
}
