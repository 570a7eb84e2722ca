import Foundation
@testable import Headway
import HeadwayTestSupport
import Testing

@Suite("Prefetch booster: hints first, the likeliest within a budget", .serialized)
@EngineActor
struct BoosterEagernessTests {
    static func pagesFetched(_ server: HTTPServer) -> [String] {
        server.requests.map(\.path).filter { $0.hasPrefix("/ch") && $0.hasSuffix(".html") }
    }

    // The book's contents with an anchor to chapter 25, far down, marked `rel=next`.
    static func bookWithNextAnchor() throws -> HTTPServer {
        let server = try ChapterSite.server()
        let lines = (1...ChapterSite.chapters).map { n in
            let rel = n == 25 ? #" rel="next""# : ""
            return #"<p style="height:100px;margin:0"><a href="ch\#(n).html"\#(rel)>Chapter \#(n)</a></p>"#
        }
        server.route("/toc.html", .html("""
            <!doctype html><html><head><meta charset=utf-8><title>Contents</title></head>
            <body style="margin:0">\(lines.joined(separator: "\n"))</body></html>
            """))
        return server
    }

    @Test func aSpeculationRulesListIsPrefetched() async throws {
        let rules = #"<script type="speculationrules">{"prefetch":[{"source":"list","urls":["ch30.html"]}]}</script>"#
        let server = try ChapterSite.server(head: rules)
        defer { server.stop() }
        let browser = try Browser(configuration: BoosterSite.configuration { $0.eagerness = .conservative })
        defer { browser.close() }
        try await browser.newPage().load(server.url.appendingPathComponent("toc.html"))
        await browser.settlePrefetch()
        #expect(Self.pagesFetched(server) == ["/ch30.html"])
        #expect(server.requestCount(path: "/ch30.svg") == 1, "with its subresources")
        #expect(server.requestCount(path: "/book.css") == 1)
        #expect(browser.prefetchStats?.linksLeftOut[.eagerness] == ChapterSite.chapters - 1)
    }

    @Test func documentRulesWithHrefMatchesAreTheOnlyOnesConservativeFetches() async throws {
        let rules = #"<script type="speculationrules">{"prefetch":[{"source":"document","eagerness":"eager","#
            + #""where":{"and":[{"href_matches":"/ch3*"},{"not":{"selector_matches":"a[href='ch3.html']"}}]}}]}"#
            + "</script>"
        let server = try ChapterSite.server(head: rules)
        defer { server.stop() }
        let browser = try Browser(configuration: BoosterSite.configuration { $0.eagerness = .conservative })
        defer { browser.close() }
        try await browser.newPage().load(server.url.appendingPathComponent("toc.html"))
        await browser.settlePrefetch()
        #expect(Set(Self.pagesFetched(server)) == Set((30...39).map { "/ch\($0).html" }))
    }

    @Test func moderateFetchesTheRelNextChapterAndStaysWithinItsBudget() async throws {
        let server = try Self.bookWithNextAnchor()
        defer { server.stop() }
        let browser = try Browser(configuration: BoosterSite.configuration())
        defer { browser.close() }
        let page = try browser.newPage()
        try await page.load(server.url.appendingPathComponent("toc.html"))
        await browser.settlePrefetch()
        #expect(Self.pagesFetched(server).first == "/ch25.html", "the rel=next chapter first")
        #expect(server.requestCount(path: "/ch25.svg") == 1)
        let stats = try #require(browser.prefetchStats)
        let need = try #require(browser.booster?.prefetcher.lastNeedEstimate)
        #expect(need > 0)
        #expect(stats.bytesPrefetched <= 4 * need, "\(stats.bytesPrefetched) bytes for a page needing \(need)")
        #expect(stats.pagesPrefetched < ChapterSite.chapters / 2, "\(stats)")
        #expect(stats.linksLeftOut[.budget] > 0)
        #expect(stats.linksFound == stats.linksEligible + stats.linksLeftOut.total)

        let before = server.requests.count
        let chapter = try await page.load(server.url.appendingPathComponent("ch25.html"))
        #expect(chapter.title == "Chapter 25")
        let load = try #require(chapter.prefetch)
        #expect(load.fetched == 0 && load.hit)
        #expect(load.bytesPrefetched == stats.bytesPrefetched)
        #expect(load.bytesUsed > 0)
        let later = server.requests.dropFirst(before)
        #expect(later.allSatisfy { $0.purpose == "prefetch" }, "the chapter needed nothing: \(later.map(\.path))")
        for path in ["/ch25.html", "/ch25.svg"] + ChapterSite.sharedPaths {
            #expect(server.requestCount(path: path) == 1, "\(path)")
        }
        let after = try #require(browser.prefetchStats)
        #expect(after.hits == 1)
        #expect(after.bytesUsed == load.bytesUsed, "each prefetched byte the chapter used, once")
        #expect(after.bytesUsed + after.bytesUnused == after.bytesPrefetched)
    }

    @Test func eagerFetchesEveryAllowedLink() async throws {
        let server = try Self.bookWithNextAnchor()
        defer { server.stop() }
        let browser = try Browser(configuration: BoosterSite.configuration { $0.eagerness = .eager })
        defer { browser.close() }
        try await browser.newPage().load(server.url.appendingPathComponent("toc.html"))
        await browser.settlePrefetch(timeout: .seconds(60))
        #expect(Set(Self.pagesFetched(server)).count == ChapterSite.chapters)
        #expect(browser.prefetchStats?.linksLeftOut[.budget] == 0)
    }

    @Test func malformedSpeculationRulesAreIgnoredWithANote() async throws {
        let head = #"<script type="speculationrules">{"prefetch": [</script><link rel="next" href="ch2.html">"#
        let server = try ChapterSite.server(head: head)
        defer { server.stop() }
        let browser = try Browser(configuration: BoosterSite.configuration { $0.eagerness = .conservative })
        defer { browser.close() }
        let page = try browser.newPage()
        let result = try await page.load(server.url.appendingPathComponent("toc.html"))
        #expect(result.title == "Contents")
        await browser.settlePrefetch()
        #expect(Self.pagesFetched(server) == ["/ch2.html"], "the page's other hints still count")
        let notes = page.console.filter { $0.level == "warn" && $0.text.contains("speculationrules") }
        #expect(notes.count == 1, "\(page.console)")
    }
}
