import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// With the booster, a typed navigation's document is fetched from the navigation's start (or
/// `Browser.preload`), and WebKit's request for it takes that response: one request, the same
/// one, cookies held until the page is shown.
@Suite("Early document fetch", .serialized)
@EngineActor
struct EarlyFetchTests {
    @Test func aLoadTakesTheDocumentItsNavigationFetchedEarly() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        try await Browser.withBrowser(configuration: BoosterSite.configuration()) { browser in
            let page = try browser.newPage()
            let result = try await page.load(server.url.appendingPathComponent("page.html"))
            #expect(result.title == Fixtures.pageTitle)
            #expect(result.prefetch?.documentFetchedEarly == true)
            #expect(server.requestCount(path: "/page.html") == 1, "\(server.requests.map(\.path))")
            // A document the cache holds (page.html links to it) is not fetched early.
            await browser.settlePrefetch(timeout: .seconds(10))
            let again = try await page.load(server.url.appendingPathComponent("second.html"))
            #expect(again.prefetch?.documentFetchedEarly == false)
            #expect(again.prefetch?.fromCache == 1)
            #expect(server.requestCount(path: "/second.html") == 1)
        }
    }

    @Test func aPreloadedDocumentIsTakenByTheLoadAndItsCookiesWaitForIt() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/p.html", HTTPResponse(headers: [("Content-Type", "text/html"), ("Set-Cookie", "p=1; Path=/")],
                                             body: Data("<!doctype html><title>P</title>".utf8)))
        server.route("/other.html", .html("<!doctype html><title>Other</title>"))
        let browser = try Browser(configuration: BoosterSite.configuration())
        defer { browser.close() }
        try browser.preload(URL(string: "p.html#part", relativeTo: server.url)!.absoluteURL)
        let page = try browser.newPage()
        // The preload has its answer before any page asked for it.
        try await waitFor("/p.html answered") { server.requests.contains { $0.path == "/p.html" } }
        try await page.load(server.url.appendingPathComponent("other.html"))
        #expect(
            server.requests.last { $0.path == "/other.html" }?.cookie == nil,
            "a document no page showed set a cookie"
        )
        let shown = try await page.load(server.url.appendingPathComponent("p.html"))
        #expect(shown.title == "P")
        #expect(shown.prefetch?.documentFetchedEarly == true)
        #expect(server.requestCount(path: "/p.html") == 1, "\(server.requests.map(\.path))")
        try await page.load(server.url.appendingPathComponent("other.html"))
        #expect(
            server.requests.last { $0.path == "/other.html" }?.cookie == "p=1",
            "the shown document's cookie is sent from now on"
        )
    }

    @Test func aColdStartDropsWhatWasFetchedBeforeIt() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let browser = try Browser(configuration: BoosterSite.configuration())
        defer { browser.close() }
        try browser.preload(server.url.appendingPathComponent("page.html"))
        try await waitFor("/page.html answered") { server.requests.contains { $0.path == "/page.html" } }
        await browser.clearWebsiteData()
        let result = try await browser.newPage().load(server.url.appendingPathComponent("page.html"))
        #expect(result.title == Fixtures.pageTitle)
        #expect(
            server.requestCount(path: "/page.html") == 2,
            "the load fetched the document again after the cold start"
        )
    }

    @Test func aPreloadNeedsTheBoosterAndAnHTTPURL() async throws {
        try await Browser.withBrowser { browser in
            let error = #expect(throws: HeadwayError.self) { try browser.preload(URL(string: "http://127.0.0.1:1/")!) }
            #expect(error?.code == .invalidArgument)
            #expect(error?.message == "preload needs the booster: set Browser.Configuration.booster")
        }
        try await Browser.withBrowser(configuration: BoosterSite.configuration()) { browser in
            let error = #expect(throws: HeadwayError.self) { try browser.preload(URL(string: "file:///etc/passwd")!) }
            #expect(error?.code == .invalidArgument)
            browser.close()
            #expect(throws: HeadwayError.self) { try browser.preload(URL(string: "http://127.0.0.1:1/")!) }
        }
    }
}
