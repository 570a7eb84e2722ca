import Foundation
import Headway
import HeadwayTestSupport
import Testing

// The time bounds here are correctness bounds (settle is a hard limit; without it these runs
// took about 60 s or never ended), kept generous for a busy machine.
@Suite("Prefetch bounds", .serialized)
@EngineActor
struct BoosterBoundsTests {
    @Test func settleIsAHardBoundWithLinksThatNeverAnswerOrDrip() async throws {
        let site = try SlowSite()
        defer { site.stop() }
        let server = site.server, stalling = site.stalling
        let browser = try Browser(configuration: BoosterSite.configuration { $0.eagerness = .eager })
        defer { browser.close() }
        let page = try browser.newPage()
        try await page.load(site.page)
        try await waitFor("the four slow links requested", { stalling.requestedPaths.count }, until: { $0 == 4 })
        let clock = ContinuousClock()
        let settled = await clock.measure { await browser.settlePrefetch(timeout: .seconds(1)) }
        #expect(settled < .seconds(2), "settle took \(settled)")
        // Settle's end cancelled the four requests in flight: the server sees them closed.
        try await waitFor("the slow server's connections closed", { stalling.openConnections }, until: { $0 == 0 })
        #expect((browser.prefetchStats?.linksLeftOut[.cancelled] ?? 0) >= 1)
        // Nothing holds a slot or a connection: the next page loads and its prefetch settles.
        let next = try await clock.measure {
            try await page.load(server.url.appendingPathComponent("page.html"), timeout: .seconds(20))
            await browser.settlePrefetch(timeout: .seconds(10))
        }
        #expect(next < .seconds(5), "the next load and its prefetch took \(next)")
        #expect(server.requests.contains { $0.path == "/second.html" && $0.purpose == "prefetch" })
    }

    @Test func aNewNavigationCancelsSlowPrefetchesAndFreesTheirSlots() async throws {
        let site = try SlowSite()
        defer { site.stop() }
        let server = site.server, stalling = site.stalling
        let browser = try Browser(configuration: BoosterSite.configuration { $0.eagerness = .eager })
        defer { browser.close() }
        let page = try browser.newPage()
        try await page.load(site.page)
        try await waitFor("the four slow links requested", { stalling.requestedPaths.count }, until: { $0 == 4 })
        let clock = ContinuousClock()
        let elapsed = try await clock.measure {
            try await page.load(server.url.appendingPathComponent("page.html"), timeout: .seconds(20))
            await browser.settlePrefetch(timeout: .seconds(10))
        }
        #expect(elapsed < .seconds(5), "\(elapsed)")
        #expect(server.requests.contains { $0.path == "/second.html" && $0.purpose == "prefetch" })
        #expect(stalling.requestedPaths.count == 4, "no slow link was fetched again")
        try await waitFor("the slow server's connections closed", { stalling.openConnections }, until: { $0 == 0 })
    }

    @Test func aRequestTimeoutEndsSilentAndDrippingPrefetches() async throws {
        let site = try SlowSite()
        defer { site.stop() }
        let server = site.server
        let browser = try Browser(configuration: BoosterSite.configuration {
            $0.requestTimeout = .seconds(1)
            $0.eagerness = .eager
        })
        defer { browser.close() }
        try await browser.newPage().load(site.page)
        let clock = ContinuousClock()
        let settled = await clock.measure { await browser.settlePrefetch(timeout: .seconds(30)) }
        // Six slow links, four at a time, each given up after 1 s: about 2 s, then second.html.
        #expect(settled < .seconds(8), "\(settled)")
        let stats = try #require(browser.prefetchStats)
        #expect(stats.skipped == 6, "\(stats)")
        #expect(stats.pagesPrefetched == 1)
        #expect(server.requests.contains { $0.path == "/second.html" && $0.purpose == "prefetch" })
    }

    @Test func closingTheBrowserCancelsPrefetchesInFlight() async throws {
        let site = try SlowSite()
        defer { site.stop() }
        let stalling = site.stalling
        let browser = try Browser(configuration: BoosterSite.configuration { $0.eagerness = .eager })
        try await browser.newPage().load(site.page)
        try await waitFor("four slow links requested and open",
                          { (stalling.requestedPaths.count, stalling.openConnections) }, until: { $0 == (4, 4) })
        browser.close()
        try await waitFor("the slow server's connections closed", { stalling.openConnections }, until: { $0 == 0 })
    }

    @Test func closingThePageCancelsTheHandlersFetchesInFlight() async throws {
        let site = try SlowSite()
        defer { site.stop() }
        let stalling = site.stalling
        let browser = try Browser(configuration: BoosterSite.configuration { $0.eagerness = .eager })
        defer { browser.close() }
        let page = try browser.newPage()
        try await page.load(site.server.url.appendingPathComponent("second.html"))
        let target = stalling.url.appendingPathComponent("hang1").absoluteString
        _ = try await page.evaluate("fetch('\(target)').catch(() => {}); 0")
        try await waitFor("the page's fetch open", { stalling.openConnections }, until: { $0 == 1 })
        page.close()
        try await waitFor("the slow server's connections closed", { stalling.openConnections }, until: { $0 == 0 })
    }

    @Test func aCancelledSettleReturnsAtOnce() async throws {
        let site = try SlowSite()
        defer { site.stop() }
        let browser = try Browser(configuration: BoosterSite.configuration { $0.eagerness = .eager })
        defer { browser.close() }
        try await browser.newPage().load(site.page)
        let clock = ContinuousClock()
        let started = clock.now
        let settle = Task { @EngineActor in await browser.settlePrefetch(timeout: .seconds(60)) }
        // Lets settle start waiting (nothing signals that it has): the cancel must end a wait in progress.
        try await Task.sleep(for: .milliseconds(200))
        settle.cancel()
        await settle.value
        #expect(clock.now - started < .seconds(2))
    }

    @Test func aPageRequestToASilentServerEndsWhenItsLoadIsStopped() async throws {
        let site = try SlowSite()
        defer { site.stop() }
        let server = site.server, stalling = site.stalling
        let browser = try Browser(configuration: BoosterSite.configuration { $0.eagerness = .eager })
        defer { browser.close() }
        let page = try browser.newPage()
        await #expect(throws: HeadwayError.self) {
            try await page.load(stalling.url.appendingPathComponent("hang1"), timeout: .seconds(1))
        }
        // The handler's own fetch was cancelled with the load: the server sees it closed.
        try await waitFor("the slow server's connections closed", { stalling.openConnections }, until: { $0 == 0 })
        let result = try await page.load(server.url.appendingPathComponent("page.html"), timeout: .seconds(20))
        #expect(result.title == Fixtures.pageTitle)
    }
}
