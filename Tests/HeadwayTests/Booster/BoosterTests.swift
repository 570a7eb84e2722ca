import Foundation
import Headway
import HeadwayTestSupport
import Testing

@Suite("Prefetch booster", .serialized)
@EngineActor
struct BoosterTests {
    @Test func aPrefetchedPageLoadsWithoutTouchingTheServer() async throws {
        let server = try BoosterSite.server()
        defer { server.stop() }
        let browser = try Browser(configuration: BoosterSite.configuration())
        defer { browser.close() }
        let page = try browser.newPage()
        let index = try await page.load(server.url.appendingPathComponent("index.html"))
        #expect(index.finalURL.scheme == "http")
        await browser.settlePrefetch()
        for path in BoosterSite.prefetchable + BoosterSite.a1Subresources + ["/sub/rel.svg"] {
            #expect(server.requestCount(path: path) == 1, "\(path) prefetched once")
        }
        for path in BoosterSite.skipped {
            #expect(server.requestCount(path: path) == 0, "\(path) must not be prefetched")
        }
        #expect(server.requests.filter { $0.path != "/index.html" }.allSatisfy { $0.purpose == "prefetch" })
        let before = server.requests.count
        let a1 = try await page.load(server.url.appendingPathComponent("a1.html"))
        #expect(a1.title == "A1")
        #expect(a1.finalURL == server.url.appendingPathComponent("a1.html"))
        #expect(server.requests.count == before, "no request reached the server")
        #expect(a1.prefetch?.fetched == 0)
        #expect((a1.prefetch?.fromCache ?? 0) >= 5)
        #expect(try await page.evaluate("window.a1") == .number(1))
        let stats = try #require(browser.prefetchStats)
        #expect(stats.linksFound == 13)
        #expect(stats.linksEligible == 4)
        #expect(stats.linksLeftOut.total == 9, "\(stats.linksLeftOut)")
        #expect(stats.pagesPrefetched == 3)
        #expect(stats.bytesPrefetched > 0)
        #expect(stats.bytesUnused < stats.bytesPrefetched)
    }

    @Test func noStoreResponsesAreFetchedAgain() async throws {
        let server = try BoosterSite.server()
        defer { server.stop() }
        let browser = try Browser(configuration: BoosterSite.configuration())
        defer { browser.close() }
        let page = try browser.newPage()
        try await page.load(server.url.appendingPathComponent("index.html"))
        await browser.settlePrefetch()
        #expect(server.requestCount(path: "/nostore.html") == 1)
        let result = try await page.load(server.url.appendingPathComponent("nostore.html"))
        #expect(result.title == "NoStore")
        #expect(server.requestCount(path: "/nostore.html") == 2)
        #expect(result.prefetch?.fetched == 1)
    }

    @Test func postGoesThroughAndIsNeverCached() async throws {
        let server = try BoosterSite.server()
        defer { server.stop() }
        let browser = try Browser(configuration: BoosterSite.configuration())
        defer { browser.close() }
        let page = try browser.newPage()
        try await page.load(server.url.appendingPathComponent("a3.html"))
        for _ in 0..<2 {
            let text = try await page.callAsyncFunction(
                "return await (await fetch('/submit', {method: 'POST', body: 'x=1'})).text()"
            )
            #expect(text == .string("ok"))
        }
        let posts = server.requests.filter { $0.path == "/submit" }
        #expect(posts.count == 2)
        #expect(posts.allSatisfy { $0.method == "POST" })
    }

    @Test func anInFlightPrefetchIsJoinedNotFetchedTwice() async throws {
        let server = try BoosterSite.server(conditions: NetworkConditions(latency: .seconds(0.6)))
        defer { server.stop() }
        let browser = try Browser(configuration: BoosterSite.configuration())
        defer { browser.close() }
        let page = try browser.newPage()
        try await page.load(server.url.appendingPathComponent("index.html"), timeout: .seconds(20))
        // Wait until the prefetch of a3 is in flight, then navigate there at once.
        try await waitFor("the prefetch of a3 to reach the server", { server.requestCount(path: "/a3.html") },
                          until: { $0 > 0 })
        let a3 = try await page.load(server.url.appendingPathComponent("a3.html"), timeout: .seconds(20))
        #expect(a3.title == "A3")
        #expect(server.requestCount(path: "/a3.html") == 1)
        #expect(a3.prefetch?.joined == 1)
    }

    @Test func aNewNavigationCancelsTheStalePrefetch() async throws {
        let server = try BoosterSite.server(conditions: NetworkConditions(latency: .seconds(0.3)))
        defer { server.stop() }
        let browser = try Browser(configuration: BoosterSite.configuration { $0.concurrency = 1 })
        defer { browser.close() }
        let page = try browser.newPage()
        try await page.load(server.url.appendingPathComponent("index.html"), timeout: .seconds(20))
        // Until a1, the first link, is prefetched (a navigation cancels the prefetches in flight).
        try await waitFor("a first page prefetched", { browser.prefetchStats?.pagesPrefetched ?? 0 }, until: { $0 > 0 })
        try await page.load(server.url.appendingPathComponent("logout"), timeout: .seconds(20))
        // Once the prefetch has settled, no more of it can come.
        await browser.settlePrefetch()
        let prefetched = BoosterSite.prefetchable.map { server.requestCount(path: $0) }.reduce(0, +)
        #expect(prefetched < BoosterSite.prefetchable.count, "prefetching went on after the new navigation")
        // What was already cached stays: a1 is served from the cache.
        let before = server.requestCount(path: "/a1.html")
        try await page.load(server.url.appendingPathComponent("a1.html"), timeout: .seconds(20))
        #expect(server.requestCount(path: "/a1.html") == before)
    }

    @Test func capsBudgetsAndConcurrencyHold() async throws {
        let server = try BoosterSite.server(conditions: NetworkConditions(latency: .seconds(0.1)))
        defer { server.stop() }
        let browser = try Browser(configuration: BoosterSite.configuration {
            $0.maxPagesPerPage = 2
            $0.concurrency = 2
        })
        defer { browser.close() }
        let page = try browser.newPage()
        try await page.load(server.url.appendingPathComponent("index.html"))
        server.resetPeak()
        await browser.settlePrefetch()
        #expect(server.peakConcurrentRequests <= 2)
        let pages = BoosterSite.prefetchable.map { server.requestCount(path: $0) }.reduce(0, +)
        #expect(pages == 2)

        let small = try Browser(configuration: BoosterSite.configuration { $0.maxResponseBytes = 100 })
        defer { small.close() }
        let other = try BoosterSite.server()
        defer { other.stop() }
        try await small.newPage().load(other.url.appendingPathComponent("index.html"))
        await small.settlePrefetch()
        #expect((small.prefetchStats?.pagesPrefetched ?? -1) == 0)
        #expect((small.prefetchStats?.skipped ?? 0) >= 3)

        let budget = try Browser(configuration: BoosterSite.configuration {
            $0.byteBudget = 400
            $0.concurrency = 1
        })
        defer { budget.close() }
        let third = try BoosterSite.server()
        defer { third.stop() }
        try await budget.newPage().load(third.url.appendingPathComponent("index.html"))
        await budget.settlePrefetch()
        let spent = try #require(budget.prefetchStats)
        #expect(spent.bytesPrefetched <= 400, "\(spent) \(third.requests.map { "\($0.path) \($0.bytes)" })")
        #expect(spent.pagesPrefetched >= 1 && spent.pagesPrefetched < 3, "the budget stops the run early")
    }

    @Test func cookiesWorkThroughTheHandlerInBothDirections() async throws {
        let server = try BoosterSite.server()
        defer { server.stop() }
        let browser = try Browser(configuration: BoosterSite.configuration())
        defer { browser.close() }
        let page = try browser.newPage()
        try await page.load(server.url.appendingPathComponent("account.html"))
        await browser.settlePrefetch()
        let prefetch = try #require(server.requests.first { $0.path == "/a3.html" })
        #expect(prefetch.cookie == "session=abc123")
        try await page.load(server.url.appendingPathComponent("index.html"))
        #expect(server.requests.last { $0.path == "/index.html" }?.cookie == "session=abc123")
    }

    @Test func reportedURLsAreTheRealOnes() async throws {
        let server = try BoosterSite.server()
        defer { server.stop() }
        let delegate = RecordingDelegate()
        let browser = try Browser(configuration: BoosterSite.configuration())
        defer { browser.close() }
        let page = try browser.newPage(delegate: delegate)
        let result = try await page.load(server.url.appendingPathComponent("a1.html"))
        #expect(result.finalURL.absoluteString.hasPrefix("http://127.0.0.1:"))
        #expect(page.url?.scheme == "http")
        #expect(delegate.calls.contains("finished /a1.html"))
        #expect(try await page.evaluate("location.protocol") == .string("headway-http:"))
        // An absolute http link to the same host is brought into the mirror scheme.
        let snippet = try await page.run(
            Snippet(file: "go.js", source: "location.href = '\(server.url.absoluteString)a3.html'")
        )
        #expect(snippet.navigatedTo?.absoluteString == server.url.absoluteString + "a3.html")
        #expect(try await page.evaluate("location.protocol") == .string("headway-http:"))
    }
}
