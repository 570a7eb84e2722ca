import Foundation
import Headway
import HeadwayTestSupport
import Testing

@Suite("Prefetch booster: which links, in which order", .serialized)
@EngineActor
struct BoosterOrderTests {
    @Test func aChapterFarDownTheContentsLoadsWithoutTouchingTheServer() async throws {
        let server = try ChapterSite.server()
        defer { server.stop() }
        // Eager: every chapter (moderate, the default, fetches the likeliest within a budget).
        let browser = try Browser(configuration: BoosterSite.configuration { $0.eagerness = .eager })
        defer { browser.close() }
        let page = try browser.newPage()
        try await page.load(server.url.appendingPathComponent("toc.html"))
        await browser.settlePrefetch(timeout: .seconds(60))
        for n in 1...ChapterSite.chapters {
            #expect(server.requestCount(path: ChapterSite.chapter(n)) == 1, "chapter \(n) prefetched once")
            #expect(server.requestCount(path: ChapterSite.image(n)) == 1, "image \(n) prefetched once")
        }
        for path in ChapterSite.sharedPaths {
            #expect(server.requestCount(path: path) == 1, "\(path) prefetched once")
        }
        let before = server.requests.count
        let chapter = try await page.load(server.url.appendingPathComponent("ch38.html"))
        #expect(chapter.title == "Chapter 38")
        #expect(chapter.prefetch?.fetched == 0)
        #expect((chapter.prefetch?.fromCache ?? 0) >= 5, "page, CSS, import, image, background")
        await browser.settlePrefetch()
        #expect(server.requests.count == before, "neither the load nor the prefetch after it reached the server")
        let stats = try #require(browser.prefetchStats)
        #expect(stats.linksFound == ChapterSite.chapters + 2)
        #expect(stats.linksEligible == ChapterSite.chapters)
        #expect(stats.pagesPrefetched == ChapterSite.chapters)
        #expect(stats.linksLeftOut[.alreadyPrefetched] == 2, "chapters 37 and 39 were prefetched from the contents")
        #expect(stats.linksLeftOut.total == 2)
        #expect(stats.skipped == 0)
    }

    @Test func declaredLinksThenVisibleOnesGoFirst() async throws {
        let rules = #"<script type="speculationrules">{"prefetch":[{"source":"list","urls":["ch40.html"]}]}</script>"#
        let server = try ChapterSite.server(head: rules + #"<link rel="next" href="ch39.html">"#)
        defer { server.stop() }
        // Eager: the unhinted links follow the hinted ones (moderate would stop at the hints).
        let browser = try Browser(configuration: BoosterSite.configuration {
            $0.maxPagesPerPage = 3
            $0.concurrency = 1
            $0.eagerness = .eager
        })
        defer { browser.close() }
        try await browser.newPage().load(server.url.appendingPathComponent("toc.html"))
        await browser.settlePrefetch()
        let pages = server.requests.map(\.path).filter { $0.hasSuffix(".html") }
        #expect(pages == ["/toc.html", "/ch40.html", "/ch39.html", "/ch1.html"])
        let stats = try #require(browser.prefetchStats)
        #expect(stats.linksFound == ChapterSite.chapters)
        #expect(stats.linksLeftOut[.cap] == ChapterSite.chapters - 3)
        #expect(server.requestCount(path: "/ch40.svg") == 1, "a declared page's subresources are prefetched too")
    }

    @Test func theBudgetStopsTheLeastLikelyPages() async throws {
        let server = try ChapterSite.server()
        defer { server.stop() }
        let browser = try Browser(configuration: BoosterSite.configuration {
            $0.byteBudget = 2000
            $0.concurrency = 1
        })
        defer { browser.close() }
        try await browser.newPage().load(server.url.appendingPathComponent("toc.html"))
        await browser.settlePrefetch()
        let stats = try #require(browser.prefetchStats)
        #expect(stats.linksEligible > 0 && stats.linksEligible < ChapterSite.chapters, "\(stats)")
        #expect(stats.linksLeftOut[.budget] == ChapterSite.chapters - stats.linksEligible)
        #expect(server.requestCount(path: "/ch1.html") == 1)
        #expect(server.requestCount(path: "/ch40.html") == 0)
    }

    @Test func aNavigationToAQueuedPageFetchesItAtOnceAndDropsTheRest() async throws {
        let server = try ChapterSite.server(conditions: NetworkConditions(latency: .seconds(0.3)))
        defer { server.stop() }
        let browser = try Browser(configuration: BoosterSite.configuration { $0.concurrency = 1 })
        defer { browser.close() }
        let page = try browser.newPage()
        try await page.load(server.url.appendingPathComponent("toc.html"), timeout: .seconds(20))
        try await waitFor("the prefetch of chapter 1 to reach the server", { server.requestCount(path: "/ch1.html") },
                          until: { $0 > 0 })
        let chapter = try await page.load(server.url.appendingPathComponent("ch30.html"), timeout: .seconds(20))
        #expect(chapter.title == "Chapter 30")
        #expect(server.requestCount(path: "/ch30.html") == 1)
        #expect(server.requests.first { $0.path == "/ch30.html" }?.purpose == "prefetch")
        #expect((chapter.prefetch?.joined ?? 0) >= 1, "the navigation joined the prefetch")
        await browser.settlePrefetch()
        let dropped = (2...28).filter { server.requestCount(path: ChapterSite.chapter($0)) > 0 }
        #expect(dropped.isEmpty, "pages queued behind chapter 30 were dropped")
        #expect((browser.prefetchStats?.linksLeftOut[.cancelled] ?? 0) >= ChapterSite.chapters - 2)
    }
}
