import Foundation
import Headway
import HeadwayTestSupport
import Testing

@Suite("Prefetch booster: what the page loaded is kept", .serialized)
@EngineActor
struct BoosterKeepsServedTests {
    // Two pages sharing a script and a style sheet; page 1 links page 2.
    static func server(scriptHeaders: [(String, String)] = []) throws -> HTTPServer {
        let server = try HTTPServer()
        for n in 1...2 {
            server.route("/page\(n).html", .html("""
                <!doctype html><html><head><meta charset=utf-8><title>Page \(n)</title>
                <link rel="stylesheet" href="/b.css"><script src="/a.js"></script></head>
                <body><h1>Page \(n)</h1><a href="/page\(n % 2 + 1).html">next</a></body></html>
                """))
        }
        server.route("/a.js", HTTPResponse(headers: [("Content-Type", "text/javascript")] + scriptHeaders,
                                           body: Data("window.shared = 1;".utf8)))
        server.route("/b.css", HTTPResponse(headers: [("Content-Type", "text/css")],
                                            body: Data("h1 { color: green }".utf8)))
        return server
    }

    @Test func sharedScriptsAndStyleSheetsAreFetchedOnce() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let browser = try Browser(configuration: BoosterSite.configuration())
        defer { browser.close() }
        let page = try browser.newPage()
        try await page.load(server.url.appendingPathComponent("page1.html"))
        await browser.settlePrefetch()
        #expect(server.requestCount(path: "/page2.html") == 1, "page 2 was prefetched")
        #expect(server.requestCount(path: "/a.js") == 1, "the prefetcher did not fetch the page's script again")
        #expect(server.requestCount(path: "/b.css") == 1, "nor its style sheet")
        let before = server.requests.count
        let second = try await page.load(server.url.appendingPathComponent("page2.html"))
        #expect(second.title == "Page 2")
        #expect(second.prefetch?.fetched == 0)
        #expect(server.requests.count == before, "page 2 needed nothing: \(server.requests.map(\.path))")
        #expect(server.requestCount(path: "/a.js") == 1)
        #expect(server.requestCount(path: "/b.css") == 1)
    }

    @Test func aNoStoreScriptIsNotKept() async throws {
        let server = try Self.server(scriptHeaders: [("Cache-Control", "no-store")])
        defer { server.stop() }
        let browser = try Browser(configuration: BoosterSite.configuration())
        defer { browser.close() }
        let page = try browser.newPage()
        try await page.load(server.url.appendingPathComponent("page1.html"))
        await browser.settlePrefetch()
        try await page.load(server.url.appendingPathComponent("page2.html"))
        #expect(server.requestCount(path: "/b.css") == 1)
        #expect(server.requestCount(path: "/a.js") >= 2, "a no-store script is fetched each time")
    }
}
