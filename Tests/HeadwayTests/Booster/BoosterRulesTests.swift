import Foundation
@testable import Headway
import Testing

@Suite("Booster rules")
struct BoosterRulesTests {
    let base = URL(string: "http://example.test/dir/page.html")!

    @Test func htmlReferencesOfEveryKindAreFound() {
        let html = """
            <html><head><base href="http://example.test/base/"><link rel="stylesheet" href="s.css">
            <link rel="preload" href="/font.woff2"><link rel="icon" href="//example.test/favicon.ico">
            <script src="app.js"></script><style>.x { background: url("bg.png") } @import url(more.css);</style></head>
            <body><a href="next.html">n</a><a href="http://other.test/abs.html">o</a>
            <img src="/root.png"><img srcset="a.png 1x, b.png 2x"><picture><source srcset="c.webp 100w"></picture>
            <div style="background-image: url('inline.png')"></div><img src="data:image/png;base64,xx"></body></html>
            """
        let assets = AssetExtractor.html(Data(html.utf8), url: base, charset: nil)
        let b = "http://example.test/base/"
        #expect(assets.anchors.map(\.absoluteString) == [b + "next.html", "http://other.test/abs.html"])
        #expect(assets.stylesheets.map(\.absoluteString) == [b + "s.css", b + "more.css"])
        #expect(Set(assets.media.map(\.absoluteString)) == [
            "http://example.test/font.woff2", "http://example.test/favicon.ico", b + "app.js", b + "bg.png",
            "http://example.test/root.png", b + "a.png", b + "b.png", b + "c.webp", b + "inline.png",
        ])
    }

    @Test func charsetComesFromTheHeaderOrTheMetaTag() {
        var bytes = Array("<html><head><meta charset=\"iso-8859-1\"></head><body><a href=\"caf".utf8)
        bytes.append(0xE9)
        bytes += Array(".html\">x</a></body></html>".utf8)
        let assets = AssetExtractor.html(Data(bytes), url: base, charset: nil)
        #expect(assets.anchors.first?.absoluteString == "http://example.test/dir/caf%C3%A9.html")
        #expect(AssetExtractor.charset(fromContentType: "text/html; charset=\"Shift_JIS\"") == "Shift_JIS")
    }

    @Test func cssURLsAndImportsAreFound() {
        let css = #"/* url(no.png) */ @import "a.css"; @import url('b.css') screen; "#
            + #".x{background:url( c.png )} .y{src:url("d.woff")}"#
        let (images, imports) = AssetExtractor.css(css, url: URL(string: "http://h.test/css/site.css")!)
        #expect(imports.map(\.absoluteString) == ["http://h.test/css/a.css", "http://h.test/css/b.css"])
        #expect(images.map(\.absoluteString) == ["http://h.test/css/c.png", "http://h.test/css/d.woff"])
    }

    @Test func cacheRulesFollowRFC9111() {
        #expect(CachePolicy.lifetime(method: "GET", status: 200, headers: []) == CachePolicy.lifetimeCap)
        #expect(
            CachePolicy.lifetime(method: "GET", status: 200, headers: [("Cache-Control", "max-age=60")]) == .seconds(60)
        )
        #expect(
            CachePolicy.lifetime(method: "GET", status: 200, headers: [("Cache-Control", "max-age=60"), ("Age", "50")])
                == .seconds(10)
        )
        #expect(
            CachePolicy.lifetime(method: "GET", status: 200, headers: [("Cache-Control", "max-age=60"), ("Age", "70")])
                == nil
        )
        #expect(
            CachePolicy.lifetime(method: "GET", status: 200, headers: [("Cache-Control", "max-age=99999")])
                == CachePolicy.lifetimeCap
        )
        #expect(CachePolicy.lifetime(method: "GET", status: 200, headers: [("Cache-Control", "no-store")]) == nil)
        #expect(CachePolicy.lifetime(method: "GET", status: 200, headers: [("Vary", "*")]) == nil)
        #expect(
            CachePolicy.lifetime(
                method: "GET",
                status: 200,
                headers: [("Vary", "Accept-Encoding"), ("Vary", "Cookie, *")]
            ) == nil
        )
        #expect(CachePolicy.lifetime(method: "POST", status: 200, headers: []) == nil)
        #expect(CachePolicy.lifetime(method: "GET", status: 404, headers: []) == nil)
        #expect(CachePolicy.lifetime(method: "GET", status: 301, headers: []) == nil)
        // Responses that must be revalidated before use are kept for a 304 when they can be.
        let etag = ("ETag", "\"v1\"")
        #expect(
            CachePolicy.lifetime(method: "GET", status: 200, headers: [("Cache-Control", "no-cache"), etag])
                == .seconds(0)
        )
        #expect(CachePolicy.lifetime(method: "GET", status: 200, headers: [("Cache-Control", "no-cache")]) == nil)
        #expect(
            CachePolicy.lifetime(
                method: "GET",
                status: 200,
                headers: [
                    ("Cache-Control", "max-age=0"),
                    ("Last-Modified", "Sun, 22 Nov 2026 07:00:00 GMT"),
                ]
            ) == .seconds(0)
        )
        #expect(
            CachePolicy.lifetime(
                method: "GET",
                status: 200,
                headers: [("Cache-Control", "max-age=60"), ("Age", "70"), etag]
            ) == .seconds(0)
        )
        #expect(
            CachePolicy.lifetime(method: "GET", status: 200, headers: [("Cache-Control", "no-store"), etag]) == nil
        )
        let stored = CachePolicy.storedHeaders([
            ("Set-Cookie", "a=b"), ("Content-Type", "text/html"), ("set-cookie", "c=d"),
        ])
        #expect(stored.map(\.0) == ["Content-Type"])
        #expect(CachePolicy.varyNames([("Vary", "Accept-Encoding, User-Agent")]) == ["accept-encoding", "user-agent"])
    }

    @Test @EngineActor func cacheIsBoundedLeastRecentlyUsedAndRespectsVary() {
        let cache = PrefetchCache(capacity: 100)
        func entry(_ path: String, _ size: Int, vary: [String: String] = [:]) -> CachedResponse {
            CachedResponse(url: URL(string: "http://h.test\(path)")!, status: 200, headers: [], body: Data(count: size),
                           varyValues: vary, storedAt: Engine.now(), lifetime: .seconds(60))
        }
        cache.end(URL(string: "http://h.test/a")!, entry("/a", 40))
        cache.end(URL(string: "http://h.test/b")!, entry("/b", 40))
        #expect(cache.lookup(URL(string: "http://h.test/a")!, requestHeaders: [:]) != nil)
        cache.end(URL(string: "http://h.test/c")!, entry("/c", 40))
        #expect(cache.bytes == 80)
        #expect(
            cache.lookup(URL(string: "http://h.test/b")!, requestHeaders: [:]) == nil,
            "least recently used went first"
        )
        #expect(cache.lookup(URL(string: "http://h.test/a")!, requestHeaders: [:]) != nil)
        cache.end(URL(string: "http://h.test/v")!, entry("/v", 10, vary: ["accept-language": "en"]))
        #expect(cache.lookup(URL(string: "http://h.test/v")!, requestHeaders: ["accept-language": "fr"]) == nil)
        #expect(cache.lookup(URL(string: "http://h.test/v")!, requestHeaders: ["accept-language": "en"]) != nil)
    }

    @Test @EngineActor func staleEntriesWithAValidatorWaitForRevalidation() throws {
        let cache = PrefetchCache(capacity: 1000)
        let url = URL(string: "http://h.test/s")!
        let plain = URL(string: "http://h.test/p")!
        cache.end(
            url,
            CachedResponse(
                url: url,
                status: 200,
                headers: [("ETag", "\"v1\""), ("Content-Type", "text/html")],
                body: Data(count: 10),
                varyValues: [:],
                storedAt: Engine.now(),
                lifetime: .zero
            )
        )
        cache.end(
            plain,
            CachedResponse(
                url: plain,
                status: 200,
                headers: [],
                body: Data(count: 10),
                varyValues: [:],
                storedAt: Engine.now(),
                lifetime: .zero
            )
        )
        #expect(cache.lookup(plain, requestHeaders: [:]) == nil, "stale without a validator is dropped")
        guard case .stale(let stale)? = cache.lookup(url, requestHeaders: [:]) else {
            Issue.record("a stale entry with an ETag is kept for revalidation")
            return
        }
        #expect(!cache.contains(url), "a stale entry does not stop a prefetch")
        #expect(stale.conditionalHeaders.map(\.0) == ["If-None-Match"])
        let fresh = try #require(
            cache.revalidated(stale, notModified: [("Cache-Control", "max-age=60"), ("ETag", "\"v1\"")], use: true)
        )
        #expect(fresh.lifetime == .seconds(60))
        #expect(headerValue(fresh.headers, "Content-Type") == "text/html", "stored headers survive a 304")
        guard case .fresh? = cache.lookup(url, requestHeaders: [:]) else {
            Issue.record("a revalidated entry is fresh again")
            return
        }
        #expect(cache.bytes == 10)
    }

    @Test func mirrorSchemesMapBothWays() {
        let url = URL(string: "https://h.test:8443/p?q=1#f")!
        #expect(MirrorScheme.mirror(url).absoluteString == "headway-https://h.test:8443/p?q=1#f")
        #expect(MirrorScheme.real(MirrorScheme.mirror(url)) == url)
        #expect(MirrorScheme.mirror(URL(string: "file:///x")!).absoluteString == "file:///x")
    }
}
