import Foundation

/// A stored response.
struct CachedResponse: Sendable {
    var url: URL
    var status: Int
    var headers: HeaderList
    var body: Data
    /// Request header values for the names in `Vary`, as they were when fetched.
    var varyValues: [String: String]
    var storedAt: Double
    var lifetime: Double
    var wasUsed = false

    func isFresh(at now: Double) -> Bool { (now - storedAt) / 1000 < lifetime }
}

/// The prefetch cache: in memory, keyed by final URL (and the `Vary` request headers), bounded in
/// bytes with least-recently-used eviction. A URL is either *in flight* (a fetch others can join)
/// or *ready* (a stored response).
@EngineActor
final class PrefetchCache {
    let capacity: Int
    private(set) var bytes = 0
    private var entries: [URL: [CachedResponse]] = [:]
    private var order: [URL] = []
    private var inFlight: [URL: Task<CachedResponse?, Never>] = [:]
    /// Bytes of entries evicted or expired before anything used them.
    private(set) var unusedEvictedBytes = 0

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// A fresh stored response whose `Vary` headers match `requestHeaders`.
    func lookup(_ url: URL, requestHeaders: [String: String]) -> CachedResponse? {
        let now = Engine.now()
        guard var variants = entries[url] else { return nil }
        let expired = variants.filter { !$0.isFresh(at: now) }
        if !expired.isEmpty {
            for entry in expired where !entry.wasUsed { unusedEvictedBytes += entry.body.count }
            bytes -= expired.reduce(0) { $0 + $1.body.count }
            variants.removeAll { !$0.isFresh(at: now) }
            entries[url] = variants.isEmpty ? nil : variants
        }
        guard let index = variants.firstIndex(where: { entry in
            entry.varyValues.allSatisfy { requestHeaders[$0.key] == $0.value }
        }) else { return nil }
        variants[index].wasUsed = true
        entries[url] = variants
        touch(url)
        return variants[index]
    }

    func contains(_ url: URL) -> Bool { entries[url] != nil || inFlight[url] != nil }

    func fetchInFlight(_ url: URL) -> Task<CachedResponse?, Never>? { inFlight[url] }

    /// Registers a fetch; the cache stores its result, if any, when it completes.
    func begin(_ url: URL, _ task: Task<CachedResponse?, Never>) {
        inFlight[url] = task
    }

    func end(_ url: URL, _ response: CachedResponse?) {
        inFlight[url] = nil
        guard let response else { return }
        store(response, under: url)
        if response.url != url { store(response, under: response.url) }
    }

    private func store(_ response: CachedResponse, under url: URL) {
        guard response.body.count <= capacity else { return }
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

    /// Drops every entry (for cold repeats). Fetches in flight still finish and store.
    func removeAll() {
        entries.removeAll()
        order.removeAll()
        bytes = 0
        unusedEvictedBytes = 0
    }

    /// Bytes stored that nothing has used yet.
    var unusedBytes: Int {
        entries.values.joined().filter { !$0.wasUsed }.reduce(0) { $0 + $1.body.count } + unusedEvictedBytes
    }

    private func touch(_ url: URL) {
        order.removeAll { $0 == url }
        order.append(url)
    }
}
