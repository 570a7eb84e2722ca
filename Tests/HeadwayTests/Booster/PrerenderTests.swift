import Foundation
@testable import Headway
import HeadwayTestSupport
import Testing

/// `BoosterConfiguration.prerender`: the likeliest next pages load in hidden views, and a load of
/// one of them shows that view, with the delegate's callbacks and a working page afterwards.
@Suite("Prerender", .serialized)
@EngineActor
struct PrerenderTests {
    static func site() throws -> HTTPServer {
        let server = try Fixtures.server()
        server.route("/index.html", .html("""
            <!doctype html><title>Index</title><nav><a href="/a.html">A</a> <a href="/b.html">B</a>
            <a href="/talks.html">T</a> <a href="/leaves.html">L</a> <a href="/posts.html">P</a> \
            <a href="/file.html">F</a></nav>
            """))
        server.route("/a.html", .html("""
            <!doctype html><title>A</title><link rel="stylesheet" href="/a.css"><p>a
            <script>window.renderedAt = performance.now(); window.loads = (window.loads || 0) + 1;</script>
            """))
        server.route("/a.css", HTTPResponse(status: 200,
                                            headers: [("Content-Type", "text/css"), ("Cache-Control", "max-age=600")],
                                            body: Data("p { color: red }".utf8)))
        server.route("/b.html", .html("<!doctype html><title>B</title><p>b"))
        server.route("/talks.html", .html("<!doctype html><title>Talks</title>"
            + "<script>addEventListener('load', () => setTimeout(() => alert('hi'), 10));</script>"))
        server.route("/posts.html", .html("<!doctype html><title>Posts</title>"
            + "<script>addEventListener('load', () => fetch('/submit', { method: 'POST', body: 'x=1' }));</script>"))
        server.route("/submit", .html("ok"))
        server.route("/file.html", HTTPResponse(status: 200,
                                                headers: [("Content-Type", "text/html"),
                                                          ("Content-Disposition", "attachment; filename=f.html")],
                                                body: Data("<title>File</title>".utf8)))
        server.route("/leaves.html", .html("<!doctype html><title>Leaves</title><script>addEventListener('load', "
            + "() => setTimeout(() => { location.href = '/b.html'; }, 10));</script>"))
        return server
    }

    static func configuration(prerender: Int) -> Browser.Configuration {
        var booster = BoosterConfiguration()
        booster.prerender = prerender
        var configuration = Browser.Configuration()
        configuration.booster = booster
        return configuration
    }

    @Test func aPrerenderedPageIsShownAsANavigation() async throws {
        let server = try Self.site()
        defer { server.stop() }
        let browser = try Browser(configuration: Self.configuration(prerender: 2))
        defer { browser.close() }
        let delegate = RecordingDelegate()
        let page = try browser.newPage(delegate: delegate)
        let index = try await page.load(server.url.appendingPathComponent("index.html"))
        #expect(index.prefetch?.prerendered == false)
        await browser.settlePrefetch()
        let requests = server.requests.count
        delegate.reset()
        let a = try await page.load(server.url.appendingPathComponent("a.html"))
        #expect(a.prefetch?.prerendered == true)
        // What the page and its delegate keep says so too (a load the page starts next does not).
        #expect(page.latestLoad == a)
        #expect(a.title == "A")
        #expect(a.finalURL == server.url.appendingPathComponent("a.html"))
        #expect(a.status == 200)
        #expect(server.requests.count == requests, "showing it asked the server for nothing")
        #expect(server.requestCount(path: "/a.html") == 1)
        // The hidden load's own Navigation Timing, and Headway's times of showing it.
        #expect(a.timing.loadEventEnd > 0)
        #expect(a.timing.started <= a.timing.committed && a.timing.committed <= a.timing.finished)
        let url = server.url.appendingPathComponent("a.html")
        #expect(
            delegate.calls == ["policy navigation /a.html", "started /a.html", "committed /a.html", "finished /a.html"]
        )
        #expect(page.url == url)
        #expect(page.title == "A")
        #expect(try await page.evaluate("window.loads") == .number(1), "the page ran once, hidden")
        #expect(try await page.evaluate("getComputedStyle(document.querySelector('p')).color") == "rgb(255, 0, 0)")
        // A navigation the page starts itself next is no prerendered one.
        _ = try await page.evaluate("setTimeout(() => { location.href = '/b.html'; }, 0); null")
        let own = try await waitFor("the page's own load of b", { page.latestLoad }, until: {
            $0?.url.lastPathComponent == "b.html"
        })
        #expect(own?.prefetch?.prerendered == false)
        // The page goes on as after any load: its next navigation is a normal one.
        let b = try await page.load(server.url.appendingPathComponent("b.html"))
        #expect(b.title == "B")
    }

    @Test func hiddenPagesThatActAreDroppedAndLoadNormally() async throws {
        let server = try Self.site()
        defer { server.stop() }
        let browser = try Browser(configuration: Self.configuration(prerender: 6))
        defer { browser.close() }
        let page = try browser.newPage()
        try await page.load(server.url.appendingPathComponent("index.html"))
        await browser.settlePrefetch()
        // The hidden pages' timers fire: talks opens a dialog, leaves navigates, posts sends a POST
        // (file is a download): each such page is dropped.
        try await waitFor("the hidden pages that act dropped", { browser.booster?.prerenders?.count },
                          until: { $0 == 2 })
        #expect(server.requestCount(path: "/submit") == 0, "the hidden page's POST never reached the server")
        let talks = try await page.load(server.url.appendingPathComponent("talks.html"))
        #expect(talks.prefetch?.prerendered == false)
        #expect(talks.title == "Talks")
    }

    @Test func thePoolKeepsTheLikeliestAndEndsTheRest() async throws {
        let server = try Self.site()
        defer { server.stop() }
        let browser = try Browser(configuration: Self.configuration(prerender: 1))
        defer { browser.close() }
        let page = try browser.newPage()
        try await page.load(server.url.appendingPathComponent("index.html"))
        await browser.settlePrefetch()
        #expect(browser.booster?.prerenders?.count == 1)
        // Only the first link in document order was prerendered.
        let b = try await page.load(server.url.appendingPathComponent("b.html"))
        #expect(b.prefetch?.prerendered == false)
        #expect(b.title == "B")
        // A cold start (what --repeat does before each run) ends every hidden page.
        await browser.settlePrefetch()
        #expect(browser.booster?.prerenders?.count == 1)
        await browser.clearWebsiteData()
        #expect(browser.booster?.prerenders?.count == 0)
    }

    @Test func aPageWithItsOwnInitScriptsLoadsNormally() async throws {
        let server = try Self.site()
        defer { server.stop() }
        let browser = try Browser(configuration: Self.configuration(prerender: 2))
        defer { browser.close() }
        let page = try browser.newPage()
        try await page.load(server.url.appendingPathComponent("index.html"))
        await browser.settlePrefetch()
        try page.addInitScript("window.init = true")
        let a = try await page.load(server.url.appendingPathComponent("a.html"))
        #expect(a.prefetch?.prerendered == false)
        #expect(try await page.evaluate("window.init") == true)
    }

    @Test func aNavigationTheDelegateCancelsIsNotShown() async throws {
        let server = try Self.site()
        defer { server.stop() }
        let browser = try Browser(configuration: Self.configuration(prerender: 2))
        defer { browser.close() }
        let delegate = RecordingDelegate()
        delegate.cancelPaths = ["/a.html"]
        let page = try browser.newPage(delegate: delegate)
        try await page.load(server.url.appendingPathComponent("index.html"))
        await browser.settlePrefetch()
        await #expect(throws: HeadwayError.self) {
            try await page.load(server.url.appendingPathComponent("a.html"), timeout: .seconds(5))
        }
        #expect(page.title == "Index")
    }

    @Test(arguments: [-1, 21]) func aPoolSizeOutOfRangeIsRefused(_ size: Int) {
        #expect(throws: HeadwayError(.invalidArgument, "the booster can prerender 0 to 20 pages, not \(size)")) {
            try Browser.validate(Self.configuration(prerender: size))
        }
    }
}
