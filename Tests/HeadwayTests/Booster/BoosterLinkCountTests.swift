import Foundation
@testable import Headway
import HeadwayTestSupport
import Testing

// Every link found is either prefetched as a page or left out under a reason, whenever the stats
// are read: a page with far more links than the booster takes.
@Suite("Prefetch booster: the link counts add up", .serialized)
@EngineActor
struct BoosterLinkCountTests {
    @Test func everyLinkOfAHugePageIsAccountedFor() async throws {
        let server = try HTTPServer()
        defer { server.stop() }
        let links = 20_000
        let anchors = (1...links).map { #"<a href="p\#($0).html">\#($0)</a>"# }.joined(separator: " ")
        server.route("/index.html", .html("<!doctype html><title>Index</title>" + anchors))
        for n in 1...60 { server.route("/p\(n).html", .html("<!doctype html><title>P\(n)</title><p>page \(n)")) }
        let browser = try Browser(configuration: BoosterSite.configuration())
        defer { browser.close() }
        try await browser.newPage().load(server.url.appendingPathComponent("index.html"))
        let check = { (when: String, found: Int?) in
            let stats = try #require(browser.prefetchStats)
            if let found { #expect(stats.linksFound == found, "\(when)") }
            #expect(stats.linksEligible + stats.linksLeftOut.total == stats.linksFound,
                    "\(when): \(stats.linksEligible) eligible + \(stats.linksLeftOut) left out")
        }
        try check("while prefetching", nil)
        await browser.settlePrefetch()
        try check("settled", links)
    }
}
