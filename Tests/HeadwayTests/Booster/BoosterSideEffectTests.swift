import Foundation
import Headway
import HeadwayTestSupport
import Testing

@Suite("Prefetch never acts for the user", .serialized)
@EngineActor
struct BoosterSideEffectTests {
    @Test func redirectsIntoPathsThatActAreNotFollowed() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/bye.html", .redirect(to: "/logout"))
        server.route("/buy.html", .redirect(to: "/cart/add"))
        server.route("/moved.html", .redirect(to: "/pictures.html"))
        server.route("/pictures.html", .html("<!doctype html><title>Pictures</title><img src=\"/pic.svg\">"))
        server.route("/pic.svg", .redirect(to: "/admin/delete"))
        for path in ["/logout", "/cart/add", "/admin/delete"] { server.route(path, .html("acted")) }
        server.route("/links.html", .html("""
            <!doctype html><title>Links</title><a href="/bye.html">bye</a> <a href="/buy.html">buy</a>
            <a href="/moved.html">moved</a>
            """))
        let browser = try Browser(configuration: BoosterSite.configuration())
        defer { browser.close() }
        try await browser.newPage().load(server.url.appendingPathComponent("links.html"))
        await browser.settlePrefetch(timeout: .seconds(10))
        #expect(server.requestCount(path: "/bye.html") == 1)
        #expect(server.requestCount(path: "/buy.html") == 1)
        #expect(server.requestCount(path: "/pic.svg") == 1)
        for path in ["/logout", "/cart/add", "/admin/delete"] {
            #expect(
                server.requestCount(path: path) == 0,
                "prefetch followed a redirect to \(path): \(server.requests.map(\.path))"
            )
        }
        // A redirect the policy allows is followed, and the page it reaches is prefetched.
        #expect(server.requests.contains { $0.path == "/pictures.html" && $0.purpose == "prefetch" })
        #expect(browser.prefetchStats?.pagesPrefetched == 1)
        #expect(browser.prefetchStats?.skipped == 3)
    }

    @Test func prefetchCookiesWaitUntilThePageIsShown() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/links.html", .html("<!doctype html><title>Links</title><a href=\"/p.html\">p</a>"))
        server.route("/p.html", HTTPResponse(headers: [("Content-Type", "text/html"), ("Set-Cookie", "p=1; Path=/")],
                                             body: Data("<!doctype html><title>P</title>".utf8)))
        server.route("/other.html", .html("<!doctype html><title>Other</title>"))
        let browser = try Browser(configuration: BoosterSite.configuration())
        defer { browser.close() }
        let page = try browser.newPage()
        try await page.load(server.url.appendingPathComponent("links.html"))
        await browser.settlePrefetch(timeout: .seconds(10))
        #expect(server.requests.contains { $0.path == "/p.html" && $0.purpose == "prefetch" })
        try await page.load(server.url.appendingPathComponent("other.html"))
        let other = try #require(server.requests.last { $0.path == "/other.html" })
        #expect(other.cookie == nil, "a page never shown set a cookie: \(other.cookie ?? "")")
        let shown = try await page.load(server.url.appendingPathComponent("p.html"))
        #expect(shown.title == "P")
        #expect(shown.prefetch?.fromCache == 1)
        #expect(server.requestCount(path: "/p.html") == 1, "served from the prefetch cache")
        // The page sees the cookie its response set, as it would without the booster.
        #expect(try await page.evaluate("document.cookie") == "p=1")
        try await page.load(server.url.appendingPathComponent("other.html"))
        let after = try #require(server.requests.last { $0.path == "/other.html" })
        #expect(after.cookie == "p=1", "the shown page's cookie is sent from now on")
        #expect(try await page.evaluate("document.cookie") == "p=1")
        #expect(try await browser.cookies(for: server.url).map(\.name) == ["p"])
    }

    @Test func aDocumentFetchedThroughTheBoosterSetsItsCookiesInThePage() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/c.html", HTTPResponse(headers: [("Content-Type", "text/html"), ("Set-Cookie", "c=2; Path=/")],
                                             body: Data("<!doctype html><title>C</title>".utf8)))
        let browser = try Browser(configuration: BoosterSite.configuration())
        defer { browser.close() }
        let page = try browser.newPage()
        let shown = try await page.load(server.url.appendingPathComponent("c.html"))
        #expect(shown.prefetch?.fromCache == 0)
        #expect(try await page.evaluate("document.cookie") == "c=2")
    }

    @Test func cookiesOfARedirectHopAreHeldToo() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/links.html", .html("<!doctype html><title>Links</title><a href=\"/hop.html\">hop</a>"))
        server.route(
            "/hop.html",
            HTTPResponse(status: 302, headers: [("Location", "/second.html"), ("Set-Cookie", "hop=1; Path=/")])
        )
        let browser = try Browser(configuration: BoosterSite.configuration())
        defer { browser.close() }
        let page = try browser.newPage()
        try await page.load(server.url.appendingPathComponent("links.html"))
        await browser.settlePrefetch(timeout: .seconds(10))
        #expect(server.requests.contains { $0.path == "/second.html" && $0.purpose == "prefetch" })
        try await page.load(server.url.appendingPathComponent("page.html"))
        #expect(server.requests.last { $0.path == "/page.html" }?.cookie == nil)
        let shown = try await page.load(server.url.appendingPathComponent("hop.html"))
        #expect(shown.title == "Second")
        #expect(server.requestCount(path: "/hop.html") == 1, "the redirect was replayed from the cache")
        try await page.load(server.url.appendingPathComponent("page.html"))
        #expect(server.requests.last { $0.path == "/page.html" }?.cookie == "hop=1")
    }
}
