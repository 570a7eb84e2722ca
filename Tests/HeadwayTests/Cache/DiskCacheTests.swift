import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// The booster's disk cache behind nginx: each run is a new `Browser` on the same directory.
@Suite("Disk cache behind nginx", .serialized)
@EngineActor
struct DiskCacheTests {
    /// Loads the site's index in a new browser whose booster keeps its cache in `directory`,
    /// waits for the cache's writes, then closes the browser.
    static func run(
        _ nginx: NginxServer,
        _ directory: URL,
        settle: Bool = false,
        bytes: Int? = nil
    ) async throws -> LoadResult {
        let browser = try Browser(
            configuration: BoosterSite.configuration {
                $0.cacheDirectory = directory
                if let bytes { $0.cacheDirectoryBytes = bytes }
            }
        )
        defer { browser.close() }
        let page = try browser.newPage()
        let result = try await page.load(nginx.url.appendingPathComponent("index.html"))
        if settle { await browser.settlePrefetch() }
        await browser.flushCacheDirectory()
        return result
    }

    static func withSite(_ options: NginxServer.Options = .init(), images: Int = 0,
                         _ body: @EngineActor (NginxServer, URL) async throws -> Void) async throws {
        let root = try DiskCacheSite.make(images: images)
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = DiskCacheSite.newCacheDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let nginx = try NginxServer(root: root, options: options)
        defer { nginx.stop() }
        try await body(nginx, directory)
    }

    @Test func aSecondRunServesFreshEntriesFromDiskWithNoRequest() async throws {
        try await Self.withSite { nginx, directory in
            let first = try await Self.run(nginx, directory)
            #expect(first.title == "Index")
            let logged = nginx.waitForRequests(count: DiskCacheSite.pagePaths.count)
            #expect(DiskCacheSite.count(logged, paths: DiskCacheSite.pagePaths) == DiskCacheSite.pagePaths.count)
            #expect(DiskCacheSite.entries(in: directory).count >= DiskCacheSite.pagePaths.count)

            let second = try await Self.run(nginx, directory)
            #expect(second.title == "Index")
            // WebKit may ask twice for an image it cannot decode (the photo): at least one answer each.
            #expect((second.prefetch?.fromCache ?? 0) >= DiskCacheSite.pagePaths.count)
            #expect(second.prefetch?.revalidated == 0)
            let after = try nginx.requestsBeforeMarker()
            #expect(DiskCacheSite.count(after, paths: DiskCacheSite.pagePaths, from: logged.count) == 0,
                    "the second run sent nothing for the page: \(after.dropFirst(logged.count).map(\.path))")
            let stats = try CacheDirectory.stats(of: directory)
            #expect(
                stats.entries >= DiskCacheSite.pagePaths.count && stats.fresh == stats.entries && stats.corrupt == 0
            )
        }
    }

    @Test func aStaleEntryWithAnETagIsRevalidatedWithA304() async throws {
        // max-age=0: stored with lifetime 0, so the next run must ask the server.
        try await Self.withSite(.init(maxAge: 0)) { nginx, directory in
            _ = try await Self.run(nginx, directory)
            let logged = nginx.waitForRequests(count: DiskCacheSite.pagePaths.count)
            #expect(try CacheDirectory.stats(of: directory).stale >= DiskCacheSite.pagePaths.count)

            let second = try await Self.run(nginx, directory)
            #expect(second.title == "Index")
            #expect((second.prefetch?.revalidated ?? 0) >= DiskCacheSite.pagePaths.count)
            #expect((second.prefetch?.fetched ?? 0) <= 1, "at most the favicon")
            let after = nginx.waitForRequests(count: logged.count + DiskCacheSite.pagePaths.count)
            let again = after.dropFirst(logged.count).filter { DiskCacheSite.pagePaths.contains($0.path) }
            #expect(Set(again.map(\.path)) == Set(DiskCacheSite.pagePaths))
            #expect(
                again.allSatisfy { $0.status == 304 && $0.ifNoneMatch != nil },
                "\(again.map { "\($0.path) \($0.status)" })"
            )
        }
    }

    @Test func aTruncatedEntryIsIgnoredAndReplaced() async throws {
        try await Self.withSite { nginx, directory in
            _ = try await Self.run(nginx, directory)
            let logged = nginx.waitForRequests(count: DiskCacheSite.pagePaths.count)
            // The photo's entry is the only one as large as the photo.
            let photo = try #require(DiskCacheSite.entries(in: directory).max { size($0) < size($1) })
            let handle = try FileHandle(forWritingTo: photo)
            try handle.truncate(atOffset: UInt64(size(photo) / 2))
            try handle.close()
            #expect(try CacheDirectory.stats(of: directory).corrupt == 1)

            let second = try await Self.run(nginx, directory)
            #expect(second.title == "Index")
            #expect((second.prefetch?.fromCache ?? 0) >= DiskCacheSite.pagePaths.count - 1)
            let after = nginx.waitForRequests(count: logged.count + 1)
            let again = after.dropFirst(logged.count).filter { DiskCacheSite.pagePaths.contains($0.path) }
            #expect(
                !again.isEmpty && again.allSatisfy { $0.path == "/photo.bin" && $0.status == 200 },
                "\(again.map(\.path))"
            )
            let stats = try CacheDirectory.stats(of: directory)
            #expect(stats.corrupt == 0, "the cut entry was deleted, and the photo stored whole again")
            #expect(stats.entries == DiskCacheSite.entries(in: directory).count)
        }
    }

    @Test func setCookieIsNeverWrittenToDisk() async throws {
        let cookies = """
            location = /index.html { add_header Set-Cookie "visit=diskcookie-index; Path=/"; }
            location = /article.html { add_header Set-Cookie "seen=diskcookie-article; Path=/"; }
            """
        try await Self.withSite(.init(extra: cookies)) { nginx, directory in
            let first = try await Self.run(nginx, directory, settle: true)
            #expect(first.title == "Index")
            let logged = nginx.waitForRequests(count: DiskCacheSite.pagePaths.count + 1)
            #expect(
                logged.contains { $0.path == "/article.html" && $0.secPurpose == "prefetch" },
                "the article was prefetched"
            )
            let files = DiskCacheSite.entries(in: directory)
            #expect(
                files.count >= DiskCacheSite.pagePaths.count + 1,
                "the index and the prefetched article were stored"
            )
            for file in DiskCacheSite.files(in: directory) {
                let text = String(decoding: try Data(contentsOf: file), as: UTF8.self).lowercased()
                #expect(!text.contains("diskcookie") && !text.contains("set-cookie"), "\(file.lastPathComponent)")
            }
            // The stored page still serves on the next run, without its cookie.
            let second = try await Self.run(nginx, directory)
            #expect((second.prefetch?.fromCache ?? 0) >= DiskCacheSite.pagePaths.count)
        }
    }
}

extension DiskCacheTests {
    @Test func theDirectoryStaysWithinItsSizeLeastRecentlyUsedFirst() async throws {
        try await Self.withSite(images: 20) { nginx, directory in
            let limit = 200_000
            _ = try await Self.run(nginx, directory, bytes: limit)
            let stats = try CacheDirectory.stats(of: directory)
            #expect(stats.bytes <= limit, "\(stats.bytes) bytes")
            #expect(stats.entries >= 3 && stats.entries < DiskCacheSite.pagePaths.count + 20, "some went, some stayed")
            let second = try await Self.run(nginx, directory, bytes: limit)
            #expect(second.title == "Index")
            #expect(try CacheDirectory.stats(of: directory).bytes <= limit)
        }
    }

    @Test func aPrefetchFindsItsPageOnDiskAndAsksNothing() async throws {
        try await Self.withSite { nginx, directory in
            _ = try await Self.run(nginx, directory, settle: true)
            let logged = nginx.waitForRequests(count: DiskCacheSite.pagePaths.count + 1)
            #expect(logged.filter { $0.path == "/article.html" }.count == 1, "the first run prefetched the article")

            let browser = try Browser(configuration: BoosterSite.configuration { $0.cacheDirectory = directory })
            defer { browser.close() }
            let page = try browser.newPage()
            _ = try await page.load(nginx.url.appendingPathComponent("index.html"))
            await browser.settlePrefetch()
            #expect(browser.prefetchStats?.pagesPrefetched == 1, "the article, from disk")
            let article = try await page.load(nginx.url.appendingPathComponent("article.html"))
            #expect(article.title == "Article" && article.prefetch?.fromCache == 1 && article.prefetch?.fetched == 0)
            let after = try nginx.requestsBeforeMarker()
            #expect(
                after.dropFirst(logged.count).filter { $0.path.hasSuffix(".html") || $0.path.hasSuffix(".bin") }
                    .isEmpty,
                "\(after.dropFirst(logged.count).map(\.path))"
            )
        }
    }

    @Test func aDirectoryThatIsNoCacheIsRefused() async throws {
        let other = DiskCacheSite.newCacheDirectory()
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: other) }
        try Data("mine".utf8).write(to: other.appendingPathComponent("notes.txt"))
        let error = #expect(throws: HeadwayError.self) {
            try Browser(configuration: BoosterSite.configuration { $0.cacheDirectory = other })
        }
        #expect(error?.code == .invalidArgument && error?.message.contains("is not a Headway cache") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: other.path) == ["notes.txt"])
    }
}

private func size(_ file: URL) -> Int {
    (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
}
