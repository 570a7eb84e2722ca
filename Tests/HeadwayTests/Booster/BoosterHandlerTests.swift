import Foundation
import Headway
import HeadwayTestSupport
import Testing

@Suite("Booster scheme handler", .serialized)
@EngineActor
struct BoosterHandlerTests {
    @Test func aRequestStoppedMidBodyIsNeverWrittenAgain() async throws {
        let server = try Fixtures.server(conditions: NetworkConditions(bytesPerSecond: 20_000))
        defer { server.stop() }
        let body = "<!doctype html><title>Slow</title>" + String(repeating: "<p>slow body</p>", count: 4000)
        server.route("/slow.html", .html(body))
        let browser = try Browser(configuration: BoosterSite.configuration())
        defer { browser.close() }
        let page = try browser.newPage()
        await #expect(throws: HeadwayError.self) {
            try await page.load(server.url.appendingPathComponent("slow.html"), timeout: .seconds(0.5))
        }
        page.close()
        // The stopped request's fetch was dropped with it: nothing read its body on, so the slow
        // server sees its transfer end short of the whole body.
        let stopped = try await waitFor("the stopped request's transfer to end",
                                        { server.requests.first { $0.path == "/slow.html" } }, until: { $0 != nil })
        #expect((stopped?.bytes ?? .max) < body.utf8.count, "\(String(describing: stopped))")
        #expect(server.requestCount(path: "/slow.html") == 1, "the stopped request was not fetched again")
        let next = try browser.newPage()
        let fast = try await Fixtures.server()
        defer { fast.stop() }
        let result = try await next.load(fast.url.appendingPathComponent("second.html"))
        #expect(result.title == "Second")
    }

    @Test func absoluteSubresourceURLsAreServedFromTheCacheToo() async throws {
        let server = try BoosterSite.server()
        defer { server.stop() }
        let svg = #"<svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"/>"#
        server.route("/abs.svg", HTTPResponse(headers: [("Content-Type", "image/svg+xml")], body: Data(svg.utf8)))
        server.route(
            "/abs.html",
            .html("<!doctype html><title>Abs</title><img src=\"\(server.url.absoluteString)abs.svg\">")
        )
        server.route("/start.html", .html("<!doctype html><title>Start</title><a href=\"/abs.html\">abs</a>"))
        let browser = try Browser(configuration: BoosterSite.configuration())
        defer { browser.close() }
        let page = try browser.newPage()
        try await page.load(server.url.appendingPathComponent("start.html"))
        await browser.settlePrefetch()
        #expect(server.requestCount(path: "/abs.svg") == 1)
        let result = try await page.load(server.url.appendingPathComponent("abs.html"))
        #expect(result.prefetch?.fetched == 0)
        #expect(result.prefetch?.fromCache == 2)
        #expect(server.requestCount(path: "/abs.svg") == 1, "the absolute image came from the prefetch cache")
        #expect(try await page.evaluate("document.images[0].complete && document.images[0].naturalWidth") == .number(9))
    }

    @Test func redirectsWorkThroughTheHandler() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/img-redirect", .redirect(to: "/pixel.svg"))
        server.route("/with-image.html", .html("<!doctype html><title>Img</title><img src=\"/img-redirect\">"))
        server.route("/to-image-page", .redirect(to: "/with-image.html", status: 301))
        let delegate = RecordingDelegate()
        let browser = try Browser(configuration: BoosterSite.configuration())
        defer { browser.close() }
        let page = try browser.newPage(delegate: delegate)
        let result = try await page.load(server.url.appendingPathComponent("to-image-page"))
        #expect(result.url.path == "/to-image-page")
        #expect(result.finalURL.path == "/with-image.html")
        #expect(result.status == 200)
        #expect(page.url?.path == "/with-image.html")
        #expect(delegate.calls.contains("redirected /with-image.html"))
        #expect(!delegate.calls.contains { $0.hasPrefix("failed") })
        #expect(delegate.calls.filter { $0.hasPrefix("finished") } == ["finished /with-image.html"])
        #expect(try await page.evaluate("document.images[0].naturalWidth") == .number(40))

        // A delegate that refuses where the redirect leads ends the load, and the page goes on.
        delegate.cancelPaths = ["/with-image.html"]
        let refused = await #expect(throws: HeadwayError.self) {
            try await page.load(server.url.appendingPathComponent("to-image-page"), timeout: .seconds(10))
        }
        #expect(refused?.message.contains("cancelled the redirect") == true)
        delegate.cancelPaths = []
        let next = try await page.load(server.url.appendingPathComponent("second.html"))
        #expect(next.title == "Second")
    }

    @Test func aPrefetchedPageReachedThroughARedirectLoadsAtItsTarget() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/start.html", .html("<!doctype html><title>Start</title><a href=\"/chapter\">chapter</a>"))
        server.route("/chapter", .redirect(to: "/chapter/", status: 301))
        server.route("/chapter/", .html("<!doctype html><title>Chapter</title><img src=\"pic.svg\">"))
        server.route(
            "/chapter/pic.svg",
            HTTPResponse(headers: [("Content-Type", "image/svg+xml")], body: Data(Fixtures.svg.utf8))
        )
        let browser = try Browser(configuration: BoosterSite.configuration())
        defer { browser.close() }
        let page = try browser.newPage()
        try await page.load(server.url.appendingPathComponent("start.html"))
        await browser.settlePrefetch()
        #expect(server.requestCount(path: "/chapter/pic.svg") == 1)
        let before = server.requests.count
        let chapter = server.url.appendingPathComponent("chapter")
        let result = try await page.load(chapter)
        let target = URL(string: "chapter/", relativeTo: server.url)!.absoluteURL
        #expect(result.finalURL == target)
        #expect(result.redirects == [Redirect(from: chapter, to: target, kind: .http)])
        #expect(result.prefetch?.fetched == 0)
        #expect(server.requests.count == before, "the redirect and the page came from the cache")
        #expect(
            try await page.evaluate("document.images[0].naturalWidth") == .number(40),
            "relative URLs resolve against the target"
        )
    }
}
