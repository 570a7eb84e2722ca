import Foundation
@testable import Headway
import HeadwayTestSupport
import Testing

/// `PageBooster`: each page's booster state is one object the page owns. It goes with the page,
/// and a prerendered view's moves to the page that shows it.
@Suite("Page booster state", .serialized)
@EngineActor
struct PageBoosterTests {
    @Test func aPagesBoosterStateGoesWithThePage() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/index.html", .html("<!doctype html><title>Index</title><a href=\"/a.html\">A</a>"))
        var configuration = Browser.Configuration()
        configuration.booster = BoosterConfiguration()
        let browser = try Browser(configuration: configuration)
        defer { browser.close() }
        weak var kept: PageBooster?
        for _ in 0..<3 {
            let page = try browser.newPage()
            let state = try #require(page.pageBooster)
            kept = state
            let view = try page.liveView()
            #expect(PageBooster.of(view) === state, "the handler finds the page's state from its view")
            #expect(state.owner === page)
            _ = try await page.load(server.url.appendingPathComponent("index.html"))
            #expect(state.stats.fetched >= 1)
            page.close()
            #expect(page.pageBooster == nil)
        }
        #expect(kept == nil, "a closed page's booster state is released")
    }

    @Test func aPrerenderedViewsStateMovesToThePageShowingIt() async throws {
        let server = try PrerenderTests.site()
        defer { server.stop() }
        let browser = try Browser(configuration: PrerenderTests.configuration(prerender: 2))
        defer { browser.close() }
        let page = try browser.newPage()
        _ = try await page.load(server.url.appendingPathComponent("index.html"))
        weak var first = page.pageBooster
        await browser.settlePrefetch()
        let a = try await page.load(server.url.appendingPathComponent("a.html"))
        #expect(a.prefetch?.prerendered == true)
        let state = try #require(page.pageBooster)
        #expect(state.owner === page)
        #expect(PageBooster.of(try page.liveView()) === state)
        #expect(first == nil, "the state of the view left went with it")
    }
}
