import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// The booster behind Debian's nginx with production settings: gzip with `Vary`, ETags and
/// `Cache-Control: max-age`.
@Suite("Booster behind nginx", .serialized)
@EngineActor
struct BoosterNginxTests {
    static let sections = ["plain", "ua", "lang", "star"]

    /// An index linking an article (CSS, script, image) and one page per `Vary` section.
    static func site() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "headway-nginx-site-\(UUID().uuidString)"
        )
        func write(_ path: String, _ text: String) throws {
            let file = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            try text.write(to: file, atomically: true, encoding: .utf8)
        }
        let links = sections.map { "<a href=\"/\($0)/page.html\">\($0)</a>" }.joined(separator: " ")
        try write(
            "index.html",
            "<!doctype html><meta charset=utf-8><title>Index</title><a href=\"article.html\">article</a> \(links)"
        )
        try write(
            "article.html",
            """
            <!doctype html><meta charset=utf-8><title>Article</title><link rel="stylesheet" href="site.css">
            <script src="site.js"></script><h1>Article</h1><img src="figure.svg" width="40" height="40">
            <p>\(String(repeating: "Some article text that gzip squeezes well. ", count: 200))</p>
            """
        )
        try write(
            "site.css",
            "body { font: 18px serif; color: #222 } h1 { color: #a33 }\n"
                + String(repeating: "p { margin: 1em }\n", count: 50)
        )
        try write(
            "site.js",
            "window.articleScript = 1;\n" + String(repeating: "// padding so that gzip applies\n", count: 20)
        )
        try write("figure.svg", Fixtures.svg)
        for section in sections {
            try write(
                "\(section)/page.html",
                "<!doctype html><meta charset=utf-8><title>\(section)</title>"
                    + "<p>\(String(repeating: "text ", count: 100))"
            )
        }
        return root
    }

    static let varyLocations = """
        location /ua/ { add_header Vary User-Agent; }
        location /lang/ { add_header Vary Accept-Language; }
        location /star/ { add_header Vary *; }
        """

    /// Runs `body` with nginx serving the site and a booster page whose index load has settled
    /// its prefetch (index, article with its three subresources, one page per section).
    static func withPrefetchedIndex(_ options: NginxServer.Options = .init(),
                                    _ body: @EngineActor (NginxServer, Page) async throws -> Void) async throws {
        let root = try site()
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try NginxServer(root: root, options: options)
        defer { nginx.stop() }
        let browser = try Browser(configuration: BoosterSite.configuration())
        defer { browser.close() }
        let page = try browser.newPage()
        try await page.load(nginx.url.appendingPathComponent("index.html"))
        await browser.settlePrefetch()
        nginx.waitForRequests(count: 5 + sections.count)
        try await body(nginx, page)
    }

    @Test func aPrefetchedArticleComesWholeFromTheCache() async throws {
        try await Self.withPrefetchedIndex { nginx, page in
            let prefetched = nginx.requests()
            #expect(
                prefetched.contains { $0.path == "/article.html" && $0.contentEncoding == "gzip" },
                "nginx gzipped the article"
            )
            let article = try await page.load(nginx.url.appendingPathComponent("article.html"))
            #expect(article.title == "Article")
            #expect(article.prefetch?.fetched == 0)
            #expect((article.prefetch?.fromCache ?? 0) >= 4)
            #expect(try await page.evaluate("window.articleScript") == .number(1))
            #expect(try await page.evaluate("document.images[0].naturalWidth") == .number(40))
            #expect(try nginx.requestsBeforeMarker().count == prefetched.count, "nothing reached nginx for the article")
            for path in ["/article.html", "/site.css", "/site.js", "/figure.svg"] {
                #expect(nginx.requestCount(path: path) == 1, "\(path) reached nginx once")
            }
        }
    }

    @Test func varyIsComparedOnTheHeadersActuallySent() async throws {
        try await Self.withPrefetchedIndex(.init(extra: Self.varyLocations)) { nginx, page in
            for section in Self.sections {
                let before = nginx.requests().count
                let result = try await page.load(nginx.url.appendingPathComponent("\(section)/page.html"))
                if section == "star" {
                    // `Vary: *` is never stored: the page goes to the server again.
                    #expect(result.prefetch?.fetched == 1)
                    #expect(nginx.waitForRequests(count: before + 1).count == before + 1)
                } else {
                    #expect(result.prefetch?.fetched == 0, "\(section): served from the cache")
                    #expect(try nginx.requestsBeforeMarker().count == before, "\(section)")
                }
            }
            // The prefetch sent what the page sends: WebKit's User-Agent and Accept-Language, libsoup's
            // Accept-Encoding.
            let prefetch = try #require(nginx.requests().first { $0.path == "/lang/page.html" })
            #expect(prefetch.acceptLanguage == "en-US,en;q=0.90")
            #expect(prefetch.acceptEncoding?.contains("gzip") == true)
            #expect(prefetch.userAgent?.contains("AppleWebKit") == true)
        }
    }

    @Test func aStaleEntryIsRevalidatedAndA304AnsweredFromTheCache() async throws {
        // max-age=0: stale at once, so every use needs the server's word.
        try await Self.withPrefetchedIndex(.init(maxAge: 0)) { nginx, page in
            let article = try await page.load(nginx.url.appendingPathComponent("article.html"))
            #expect(article.title == "Article")
            #expect(article.prefetch?.fetched == 0)
            #expect((article.prefetch?.revalidated ?? 0) >= 1)
            let conditional = nginx.waitForRequests(count: 0).filter {
                $0.path == "/article.html" && $0.secPurpose == nil
            }
            #expect(conditional.count == 1)
            #expect(conditional.first?.status == 304)
            #expect(conditional.first?.ifNoneMatch != nil)
        }
    }
}
