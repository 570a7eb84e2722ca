import Foundation
@testable import Headway
import HeadwayTestSupport
import Testing

/// Numbers read from files (cookie files, disk-cache entries) and configuration limits: refused
/// with a clear error, clamped, or treated as a miss; never a trap.
extension HostileNumberTests {
    @Test func cookieExpiriesBeyondWhatGLibHoldsAreClamped() throws {
        // What the CLI reads from the cookies.txt line ".example.com TRUE / FALSE 9223372036854775807
        // name value" (CLIUnitTests.NetscapeCookiesTests).
        let cookies = [Cookie(name: "name", value: "value", domain: ".example.com",
                              expires: Date(timeIntervalSince1970: 9_223_372_036_854_775_807))]
        let expiries: [Date?] = [cookies[0].expires, .distantFuture, .distantPast,
                                 Date(timeIntervalSince1970: 1e300), Date(timeIntervalSince1970: -1e300),
                                 Date(timeIntervalSince1970: .nan)]
        for expires in expiries {
            var cookie = cookies[0]
            cookie.expires = expires
            #expect(cookie.soupCookie() != nil, "expires \(String(describing: expires))")
        }
    }

    @Test func aMemoryLimitBeyondWhatWebKitHoldsIsRefused() {
        for limit in [0, -1, 4_294_967_296, Int.max] {
            var configuration = Browser.Configuration()
            configuration.webProcessMemoryLimit = limit
            #expect(throws: HeadwayError(.invalidArgument,
                                         "the web process memory limit must be 1 to 1048576 MB, not \(limit)")) {
                try Browser.validate(configuration)
            }
        }
        var fine = Browser.Configuration()
        fine.webProcessMemoryLimit = 1_048_576
        #expect(throws: Never.self) { try Browser.validate(fine) }
    }

    static func entryFile(status: Int = 200, bodyLength: Int? = nil) throws -> Data {
        let url = URL(string: "http://127.0.0.1:8080/page.html")!
        let body = Data("hello".utf8)
        var entry = DiskCacheEntry(
            CachedResponse(
                url: url,
                status: 200,
                headers: [("Content-Type", "text/html")],
                body: body,
                varyValues: [:],
                storedAt: Engine.now(),
                lifetime: .seconds(300)
            ),
            key: url
        )
        entry.status = status
        if let bodyLength { entry.bodyLength = bodyLength }
        return try entry.encoded(body: body)
    }

    @Test func aDiskEntryWithAnImpossibleStatusOrLengthIsAMiss() throws {
        #expect(DiskCacheEntry.decode(try Self.entryFile()) != nil)
        for status in [-1, 0, 99, 1000, 99_999_999_999, Int.max, Int.min] {
            #expect(DiskCacheEntry.decode(try Self.entryFile(status: status)) == nil, "status \(status)")
        }
        for length in [-1, Int.max, Int.min] {
            #expect(DiskCacheEntry.decode(try Self.entryFile(bodyLength: length)) == nil, "bodyLength \(length)")
        }
    }

    @Test func aDiskEntryWithABadStatusIsRemovedNotServed() async throws {
        let url = URL(string: "http://127.0.0.1:8080/page.html")!
        let directory = DiskCacheSite.newCacheDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = try DiskCache(directory: directory, capacity: 1 << 20)
        cache.save(
            CachedResponse(
                url: url,
                status: 200,
                headers: [("Content-Type", "text/html")],
                body: Data("hello".utf8),
                varyValues: [:],
                storedAt: Engine.now(),
                lifetime: .seconds(300)
            ),
            under: url
        )
        await withCheckedContinuation { done in cache.afterQueuedWrites { done.resume() } }
        let file = try #require(DiskCacheSite.entries(in: directory).first)
        #expect(await cache.lookup(url, requestHeaders: [:]) != nil)
        try Self.entryFile(status: -1).write(to: file)
        #expect(await cache.lookup(url, requestHeaders: [:]) == nil)
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test func cacheStatsAndClearCountAHugeBodyLengthAsCorrupt() throws {
        let directory = DiskCacheSite.newCacheDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try DiskCache(directory: directory, capacity: 1 << 20)
        let folder = directory.appendingPathComponent("ab")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (index, length) in [Int.max, Int.min, -1].enumerated() {
            try Self.entryFile(bodyLength: length).write(to: folder.appendingPathComponent("ab\(index).hwc"))
        }
        try Self.entryFile(status: -1).write(to: folder.appendingPathComponent("ab9.hwc"))
        let stats = try CacheDirectory.stats(of: directory)
        #expect(stats.entries == 0 && stats.corrupt == 4)
        #expect(try CacheDirectory.clear(directory).corrupt == 4)
        #expect(DiskCacheSite.entries(in: directory).isEmpty)
    }
}
