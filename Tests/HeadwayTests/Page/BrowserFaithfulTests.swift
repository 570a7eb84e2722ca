import Foundation
import Headway
import HeadwayTestSupport
import Testing

@Suite("Browser-faithful loads", .serialized)
@EngineActor
struct BrowserFaithfulTests {
    static let chapter = """
        <!doctype html><html><head><meta charset=utf-8><title>Chapter</title>
        <link rel="stylesheet" href="/book.css"><link rel="stylesheet" href="/book.css"></head>
        <body><img src="/logo.svg"><p>text</p><img src="/logo.svg"><p>more</p><img src="/logo.svg">
        <img src="/figure.svg"><img src="/figure.svg"></body></html>
        """

    static func server() throws -> HTTPServer {
        let server = try HTTPServer()
        server.route("/chapter.html", .html(chapter))
        server.route("/chapter-2.html", .html(chapter))
        // Fresh for five minutes, so only a cleared cache explains a second request.
        let fresh = ("Cache-Control", "max-age=300")
        server.route(
            "/book.css",
            HTTPResponse(headers: [("Content-Type", "text/css"), fresh], body: Data("p { color: #333 }".utf8))
        )
        for path in ["/logo.svg", "/figure.svg"] {
            server.route(
                path,
                HTTPResponse(headers: [("Content-Type", "image/svg+xml"), fresh], body: Data(Fixtures.svg.utf8))
            )
        }
        return server
    }

    @Test(arguments: [false, true])
    func aRepeatedImageOrStylesheetIsRequestedOnce(booster: Bool) async throws {
        let server = try Self.server()
        defer { server.stop() }
        let configuration = booster ? BoosterSite.configuration() : Browser.Configuration()
        try await Browser.withPage(configuration: configuration) { page in
            let result = try await page.load(server.url.appendingPathComponent("chapter.html"))
            #expect(result.title == "Chapter")
            for path in ["/chapter.html", "/book.css", "/logo.svg", "/figure.svg"] {
                #expect(server.requestCount(path: path) == 1, "\(path) requested once")
            }
        }
    }

    @Test func laterPagesReuseWhatEarlierPagesCached() async throws {
        let server = try Self.server()
        defer { server.stop() }
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("chapter.html"))
            try await page.load(server.url.appendingPathComponent("chapter-2.html"))
            #expect(server.requestCount(path: "/chapter-2.html") == 1)
            for path in ["/book.css", "/logo.svg", "/figure.svg"] {
                #expect(server.requestCount(path: path) == 1, "\(path) came from the cache the second time")
            }
        }
    }

    @Test func coldRepeatsStartWithEmptyCaches() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let browser = try Browser()
        defer { browser.close() }
        let (_, results) = try await browser.measure(server.url.appendingPathComponent("chapter.html"), runs: 3)
        #expect(results.count == 3)
        for path in ["/chapter.html", "/book.css", "/logo.svg", "/figure.svg"] {
            #expect(server.requestCount(path: path) == 3, "\(path) requested once per cold run")
        }
    }
}
