import Foundation

// The booster's cache on disk, shared between runs and between processes: one file per entry
// (see `DiskCacheEntry`), in a folder named by the first two hex digits of its key's SHA-256.
// A file is written whole to a temporary file beside it, then renamed over the old one, so a
// reader sees an old entry or a new one, never half of one; there is no index for two writers
// to fight over. File I/O runs on queues of its own, never on the engine thread.
final class DiskCache: Sendable {
    let directory: URL
    let capacity: Int
    private let reads = DispatchQueue(label: "headway.disk-cache.reads", qos: .utility, attributes: .concurrent)
    private let writes = DispatchQueue(label: "headway.disk-cache.writes", qos: .utility)
    private let usage = DiskCacheUsage()

    // Opens `directory` as a cache (see `CacheDirectory.prepare`), bounded to `capacity` bytes.
    init(directory: URL, capacity: Int) throws {
        self.directory = try CacheDirectory.prepare(directory)
        self.capacity = capacity
    }

    // The stored response for `key` whose `Vary` values match `requestHeaders` (lower-cased
    // names), fresh or stale with a validator. Entries that are corrupt, or stale without a
    // validator, are deleted on the way.
    func lookup(_ key: URL, requestHeaders: [String: String]) async -> CachedResponse? {
        await withCheckedContinuation { continuation in
            reads.async { continuation.resume(returning: self.read(key, requestHeaders: requestHeaders)) }
        }
    }

    // Writes `response` under `key` in the background (never its cookies). A response marked
    // `private`, or one that varies on `Cookie` or `Authorization` (whose values would be
    // written down), stays in memory only.
    func save(_ response: CachedResponse, under key: URL) {
        guard response.body.count <= capacity, Self.mayPersist(response) else { return }
        // The body's checksum and the encoding are work for the queue too, not the caller.
        writes.async {
            let entry = DiskCacheEntry(response, key: key)
            self.write(
                entry,
                body: response.body,
                name: DiskCacheEntry.fileName(key: key, varyValues: response.varyValues)
            )
        }
    }

    static func mayPersist(_ response: CachedResponse) -> Bool {
        let control = headerValue(response.headers, "Cache-Control")?.lowercased() ?? ""
        let isPrivate = control.split(separator: ",").contains {
            $0.trimmingCharacters(in: .whitespaces).hasPrefix("private")
        }
        return !isPrivate
            && response.varyValues.keys.allSatisfy { !["cookie", "authorization"].contains($0.lowercased()) }
    }

    // Deletes the entry for `response` under `key`, in the background.
    func remove(_ response: CachedResponse, under key: URL) {
        let file = folder(key).appendingPathComponent(
            DiskCacheEntry.fileName(key: key, varyValues: response.varyValues)
        )
        writes.async { unlink(file.path) }
    }

    // Calls `done` (on the write queue) once the writes queued so far are on disk.
    func afterQueuedWrites(_ done: @escaping @Sendable () -> Void) {
        writes.async(execute: done)
    }

    private func folder(_ key: URL) -> URL {
        directory.appendingPathComponent(String(DiskCacheEntry.keyHash(key).prefix(2)))
    }

    private func read(_ key: URL, requestHeaders: [String: String]) -> CachedResponse? {
        let folder = folder(key)
        let prefix = DiskCacheEntry.keyHash(key) + "-"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let now = Engine.now()
        for name in names where name.hasPrefix(prefix) && name.hasSuffix("." + DiskCacheEntry.fileExtension) {
            let file = folder.appendingPathComponent(name)
            // It may have been evicted, or replaced, by another process since the listing.
            guard let data = FileManager.default.contents(atPath: file.path) else { continue }
            guard let (entry, body) = DiskCacheEntry.decode(data), let response = entry.response(body: body) else {
                unlink(file.path)
                continue
            }
            guard entry.key == key.absoluteString else { continue }
            if !response.isFresh(at: now) && !response.hasValidator {
                unlink(file.path)
                continue
            }
            guard response.matches(requestHeaders) else { continue }
            // Least recently used goes first: a use counts as a write time.
            utimes(file.path, nil)
            return response
        }
        return nil
    }

    private func write(_ entry: DiskCacheEntry, body: Data, name: String) {
        guard let key = URL(string: entry.key), let data = try? entry.encoded(body: body) else { return }
        let folder = folder(key)
        let temporary = folder.appendingPathComponent(".\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
        // Another process's `cache clear` may remove the folder at any time: then this write is lost.
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // Written in place (not through Foundation's own atomic temporary file, which a kill would
        // leave under a name that eviction and `cache clear` do not know).
        guard (try? data.write(to: temporary)) != nil else {
            unlink(temporary.path)
            return
        }
        guard rename(temporary.path, folder.appendingPathComponent(name).path) == 0 else {
            unlink(temporary.path)
            return
        }
        if usage.add(data.count, capacity: capacity, directory: directory) {
            usage.reset(to: CacheDirectory.evict(directory, downTo: capacity * 9 / 10))
        }
    }
}

// The bytes this process believes the directory holds: scanned at the first write, then
// counted up; a scan (with eviction) sets it again whenever it passes the capacity. Only the
// write queue uses it.
private final class DiskCacheUsage: @unchecked Sendable {
    private var bytes: Int?

    // Adds `count` and tells whether the total is now past `capacity`.
    func add(_ count: Int, capacity: Int, directory: URL) -> Bool {
        // A first scan already counts the file just written.
        let total = bytes.map { $0 + count } ?? CacheDirectory.scan(directory).entries.reduce(0) { $0 + $1.size }
        bytes = total
        return total > capacity
    }

    func reset(to total: Int) { bytes = total }
}
