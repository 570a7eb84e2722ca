public import Foundation

/// A disk cache directory (`BoosterConfiguration.cacheDirectory`): its figures, and emptying it.
/// A directory is a Headway cache when it holds the `headway-cache` tag file that the booster
/// writes into it first; these calls refuse any other directory.
///
/// ```swift
/// let stats = try CacheDirectory.stats(of: URL(fileURLWithPath: "/var/cache/headway"))
/// print(stats.entries, stats.bytes)
/// ```
public enum CacheDirectory {
    // The tag file's name and its content.
    static let tagName = "headway-cache"
    static let tag = Data("Headway disk cache, format 1\n".utf8)

    /// Counts the entries of the cache at `directory` and their bytes, fresh and stale. Throws
    /// `.fileUnreadable` when it is no directory, `.invalidArgument` when it is not a Headway cache.
    public static func stats(of directory: URL) throws -> CacheDirectoryStats {
        try checkIsCache(directory)
        let found = scan(directory)
        var stats = CacheDirectoryStats()
        stats.temporary = found.temporaries.count
        let now = Date().timeIntervalSince1970
        for file in found.entries {
            guard let entry = header(of: file.url) else {
                stats.corrupt += 1
                continue
            }
            stats.entries += 1
            stats.bytes += file.size
            if now - entry.storedAt >= 0, now - entry.storedAt < entry.lifetime {
                stats.fresh += 1
            } else {
                stats.stale += 1
            }
        }
        return stats
    }

    /// Deletes every entry and temporary file in the cache at `directory` (and the folders they
    /// leave empty), nothing else, and returns what it held. Throws as `stats(of:)` does.
    @discardableResult
    public static func clear(_ directory: URL) throws -> CacheDirectoryStats {
        let before = try stats(of: directory)
        let found = scan(directory)
        for file in found.entries + found.temporaries { unlink(file.url.path) }
        for folder in found.folders { rmdir(folder.path) }  // fails, harmlessly, unless empty
        return before
    }

    // Opens `directory` for the booster: creates it if needed and tags it, or checks that it is
    // a Headway cache. A directory that is neither empty nor tagged is refused, so that a typo
    // cannot fill (or, with eviction, empty) someone's folder.
    static func prepare(_ directory: URL) throws -> URL {
        let directory = directory.standardizedFileURL
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: directory.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else {
                throw HeadwayError(.invalidArgument, "the cache directory \(directory.path) is a file, not a directory")
            }
            if isTagged(directory) { return directory }
            // Another process may be tagging it right now: its temporary tag file does not count.
            let contents = ((try? manager.contentsOfDirectory(atPath: directory.path)) ?? ["?"])
                .filter { !($0.hasPrefix(".\(tagName).") && $0.hasSuffix(".tmp")) }
            guard contents.isEmpty else {
                if isTagged(directory) { return directory }  // tagged meanwhile
                throw HeadwayError(
                    .invalidArgument,
                    "\(directory.path) is not a Headway cache (it has no \(tagName) file) "
                        + "and is not empty; give a new or empty directory"
                )
            }
        }
        do {
            // One user's private cache: nobody else may read what their pages fetched.
            try manager.createDirectory(
                at: directory,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
            // Two processes may tag a new directory at once: the same bytes, renamed into place.
            let temporary = directory.appendingPathComponent(
                ".\(tagName).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
            )
            try tag.write(to: temporary)
            guard rename(temporary.path, directory.appendingPathComponent(tagName).path) == 0 || isTagged(directory)
            else {
                throw HeadwayError(
                    .fileUnwritable,
                    "could not tag the cache directory \(directory.path): \(String(cString: strerror(errno)))"
                )
            }
        } catch let error as HeadwayError {
            throw error
        } catch {
            throw HeadwayError(
                .fileUnwritable,
                "could not create the cache directory \(directory.path): \(error.localizedDescription)"
            )
        }
        return directory
    }

    static func isTagged(_ directory: URL) -> Bool {
        FileManager.default.contents(atPath: directory.appendingPathComponent(tagName).path) == tag
    }

    private static func checkIsCache(_ directory: URL) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) else {
            throw HeadwayError(.fileUnreadable, "no such directory: \(directory.path)")
        }
        guard isDirectory.boolValue else {
            throw HeadwayError(.fileUnreadable, "\(directory.path) is a file, not a directory")
        }
        guard isTagged(directory) else {
            throw HeadwayError(.invalidArgument, "\(directory.path) is not a Headway cache (it has no \(tagName) file)")
        }
    }
}
