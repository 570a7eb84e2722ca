import Foundation
@testable import Headway
import HeadwayTestSupport
import Testing

/// The disk cache's file format and its directory, without a browser.
@Suite("Disk cache entries")
struct DiskCacheEntryTests {
    static let url = URL(string: "http://127.0.0.1:8080/photo.png")!

    static func response(
        lifetime: Duration = .seconds(300),
        headers: HeaderList = [("Content-Type", "image/png"), ("ETag", "\"abc\"")]
    ) -> CachedResponse {
        CachedResponse(
            url: url,
            status: 200,
            headers: headers,
            body: Data((0..<1000).map { UInt8($0 & 0xFF) }),
            varyValues: ["accept-language": "en-US"],
            storedAt: Engine.now(),
            lifetime: lifetime,
            cookies: [SetCookie(url: url, value: "held=secret")]
        )
    }

    @Test func anEntryReadsBackAndEveryCutOrFlipIsRefused() throws {
        let data = try DiskCacheEntry(Self.response(), key: Self.url).encoded(body: Self.response().body)
        let (entry, body) = try #require(DiskCacheEntry.decode(data))
        let back = try #require(entry.response(body: body))
        #expect(back.url == Self.url && back.status == 200 && back.body == Self.response().body)
        #expect(back.varyValues == ["accept-language": "en-US"] && back.cookies.isEmpty && back.persisted)
        #expect(back.isFresh(at: Engine.now()) && back.hasValidator)
        for length in stride(from: 0, to: data.count, by: 7) {
            #expect(DiskCacheEntry.decode(data.prefix(length)) == nil, "cut at \(length)")
        }
        var flipped = data
        flipped[data.count - 10] ^= 1
        #expect(DiskCacheEntry.decode(flipped) == nil)
    }

    @Test func cookiesAndSetCookieNeverReachTheFile() throws {
        let response = Self.response(headers: [
            ("Content-Type", "text/html"), ("Set-Cookie", "a=secret"), ("set-cookie2", "b=secret"),
        ])
        let data = try DiskCacheEntry(response, key: Self.url).encoded(body: response.body)
        let text = String(decoding: data, as: UTF8.self).lowercased()
        #expect(!text.contains("secret") && !text.contains("set-cookie") && !text.contains("held"))
    }

    @Test func aStaleEntryStaysStaleAcrossTheClocks() throws {
        var response = Self.response(lifetime: .seconds(60))
        response.storedAt = Engine.now() - .seconds(120)  // two minutes old
        let data = try DiskCacheEntry(response, key: Self.url).encoded(body: response.body)
        let back = try #require(DiskCacheEntry.decode(data).flatMap { $0.0.response(body: $0.1) })
        #expect(!back.isFresh(at: Engine.now()))
        #expect(abs((Engine.now() - back.storedAt).seconds - 120) < 5)
    }

    @Test func privateResponsesAndThoseVaryingOnCookiesStayInMemory() async throws {
        #expect(DiskCache.mayPersist(Self.response()))
        #expect(!DiskCache.mayPersist(Self.response(headers: [("Cache-Control", "private, max-age=60")])))
        var cookieVariant = Self.response()
        cookieVariant.varyValues = ["cookie": "session=secret"]
        #expect(!DiskCache.mayPersist(cookieVariant))
        let directory = DiskCacheSite.newCacheDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = try DiskCache(directory: directory, capacity: 1 << 20)
        cache.save(cookieVariant, under: Self.url)
        await withCheckedContinuation { done in cache.afterQueuedWrites { done.resume() } }
        #expect(DiskCacheSite.entries(in: directory).isEmpty)
        let mode = try FileManager.default.attributesOfItem(atPath: directory.path)[.posixPermissions] as? Int
        #expect(mode == 0o700)
    }

    @Test func theDirectoryStoresLooksUpAndDropsWhatIsCut() async throws {
        let directory = DiskCacheSite.newCacheDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = try DiskCache(directory: directory, capacity: 1 << 20)
        cache.save(Self.response(), under: Self.url)
        await withCheckedContinuation { done in cache.afterQueuedWrites { done.resume() } }
        #expect(await cache.lookup(Self.url, requestHeaders: ["accept-language": "fr"]) == nil, "another Vary value")
        let found = try #require(await cache.lookup(Self.url, requestHeaders: ["accept-language": "en-US"]))
        #expect(found.body == Self.response().body)
        let file = try #require(DiskCacheSite.entries(in: directory).first)
        try Data("HWCACHE1".utf8).write(to: file)
        #expect(await cache.lookup(Self.url, requestHeaders: ["accept-language": "en-US"]) == nil)
        #expect(!FileManager.default.fileExists(atPath: file.path), "the cut entry was deleted")
        #expect(CacheDirectory.isTagged(directory))
    }
}
