import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// `Browser.prefetchReports()`: each request the booster makes ahead of a page, as the server saw it.
@Suite("Prefetch reports", .serialized)
@EngineActor
struct PrefetchReportTests {
    @Test func eachPrefetchIsReportedWithThePageItServes() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/links.html", .html("<!doctype html><title>Links</title><a href=\"/p.html\">p</a>"))
        server.route("/p.html", .html("<!doctype html><title>P</title>"))
        let browser = try Browser(configuration: BoosterSite.configuration())
        defer { browser.close() }
        let reports = try #require(browser.prefetchReports())
        let links = server.url.appendingPathComponent("links.html")
        try await browser.newPage().load(links)
        await browser.settlePrefetch(timeout: .seconds(10))
        var iterator = reports.makeAsyncIterator()
        let report = try #require(await iterator.next())
        #expect(report.url == server.url.appendingPathComponent("p.html"))
        #expect(report.page == links && report.isPage && report.status == 200 && report.bytes > 0)
        #expect(server.requests.contains { $0.path == "/p.html" && $0.purpose == "prefetch" })
        #expect(try Browser().prefetchReports() == nil, "no booster, no reports")
    }
}
