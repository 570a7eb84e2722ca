import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// The viewport can be resized after the page opened; the page sees the new size.
@Suite("Viewport size", .serialized)
@EngineActor
struct ViewportTests {
    @Test func resizingChangesInnerWidthAndHeight() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        var configuration = Browser.Configuration()
        configuration.viewportWidth = 1000
        configuration.viewportHeight = 700
        try await Browser.withPage(configuration: configuration) { page in
            try await page.load(server.url.appendingPathComponent("page.html"))
            #expect(page.viewportSize == (1000, 700))
            #expect(try await page.evaluate("[innerWidth, innerHeight]") == [1000, 700])
            try await page.setViewportSize(width: 640, height: 480)
            #expect(page.viewportSize == (640, 480))
            #expect(try await page.evaluate("[innerWidth, innerHeight]") == [640, 480])
            try await page.setViewportSize(width: 1200, height: 900)
            #expect(try await page.evaluate("[innerWidth, innerHeight]") == [1200, 900])
            // A new page in the same view keeps the size.
            try await page.load(server.url.appendingPathComponent("second.html"))
            #expect(try await page.evaluate("[innerWidth, innerHeight]") == [1200, 900])
        }
    }

    @Test func aPrerenderedPageKeepsThePagesViewport() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/index.html", .html("<!doctype html><title>Index</title><a href=\"/b.html\">B</a>"))
        server.route("/b.html", .html("<!doctype html><title>B</title><p>b"))
        var booster = BoosterConfiguration()
        booster.prerender = 1
        var configuration = Browser.Configuration()
        configuration.booster = booster
        try await Browser.withBrowser(configuration: configuration) { browser in
            let page = try browser.newPage()
            try await page.load(server.url.appendingPathComponent("index.html"))
            try await page.setViewportSize(width: 700, height: 500)
            await browser.settlePrefetch()
            let b = try await page.load(server.url.appendingPathComponent("b.html"))
            #expect(b.prefetch?.prerendered == true)
            #expect(try await page.evaluate("[innerWidth, innerHeight]") == [700, 500])
        }
    }

    @Test func sizesOutOfRangeAreRefused() async throws {
        try await Browser.withPage { page in
            for (width, height) in [(0, 100), (100, -1), (Limits.viewportSide.upperBound + 1, 100)] {
                let error = await #expect(throws: HeadwayError.self) {
                    try await page.setViewportSize(width: width, height: height)
                }
                #expect(error?.code == .invalidArgument)
            }
        }
    }
}
