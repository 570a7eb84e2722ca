import Foundation

// Walking a cache directory: its entry and temporary files, the least recently used removed
// first. Another process may remove or replace any file meanwhile; a file that is gone is
// skipped.
extension CacheDirectory {
    struct File {
        var url: URL
        var size: Int
        // Its last write or use, in seconds since 1970.
        var used: Double
    }

    struct Listing {
        var entries: [File] = []
        var temporaries: [File] = []
        // The two-hex-digit folders the files live in.
        var folders: [URL] = []
    }

    // A temporary file older than this was left by a process that died while writing.
    static let abandonedAfter: Double = 600

    static func scan(_ directory: URL) -> Listing {
        var listing = Listing()
        let manager = FileManager.default
        for name in (try? manager.contentsOfDirectory(atPath: directory.path)) ?? [] where isFolderName(name) {
            let folder = directory.appendingPathComponent(name)
            listing.folders.append(folder)
            for file in (try? manager.contentsOfDirectory(atPath: folder.path)) ?? [] {
                let url = folder.appendingPathComponent(file)
                var info = stat()
                guard stat(url.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
                let found = File(url: url, size: Int(info.st_size),
                                 used: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
                if file.hasPrefix("."), file.hasSuffix(".tmp") {
                    listing.temporaries.append(found)
                } else if file.hasSuffix("." + DiskCacheEntry.fileExtension) {
                    listing.entries.append(found)
                }
            }
        }
        return listing
    }

    // Deletes the least recently used entries until at most `limit` bytes are left, and
    // temporary files abandoned by dead writers. Returns the bytes left.
    static func evict(_ directory: URL, downTo limit: Int) -> Int {
        let listing = scan(directory)
        let now = Date().timeIntervalSince1970
        for file in listing.temporaries where now - file.used > abandonedAfter { unlink(file.url.path) }
        var total = listing.entries.reduce(0) { $0 + $1.size }
        for file in listing.entries.sorted(by: { $0.used < $1.used }) where total > limit {
            unlink(file.url.path)
            total -= file.size
        }
        return total
    }

    // The metadata of the entry file at `url`, read without its body, or nil when the file is
    // not a whole entry (its size disagrees with the lengths it states).
    static func header(of url: URL) -> DiskCacheEntry? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        let prefix = DiskCacheEntry.magic.count + 4
        guard let start = try? handle.read(upToCount: prefix), start.count == prefix,
              start.prefix(DiskCacheEntry.magic.count) == DiskCacheEntry.magic else { return nil }
        let length = start.dropFirst(DiskCacheEntry.magic.count).reduce(0) { $0 << 8 | Int($1) }
        guard length > 0, length < 16 << 20, let metadata = try? handle.read(upToCount: length),
              metadata.count == length,
              let entry = try? JSONDecoder().decode(DiskCacheEntry.self, from: metadata), entry.isPlausible,
              let end = try? handle.seekToEnd()
        else { return nil }
        // A stated length near Int.max must not overflow the sum.
        let size = UInt64(prefix + length).addingReportingOverflow(UInt64(entry.bodyLength))
        guard !size.overflow, size.partialValue == end else { return nil }
        return entry
    }

    private static func isFolderName(_ name: String) -> Bool {
        name.count == 2 && name.allSatisfy(\.isHexDigit) && name == name.lowercased()
    }
}
