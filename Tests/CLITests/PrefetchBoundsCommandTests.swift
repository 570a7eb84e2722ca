import Foundation
import Headway
import HeadwayTestSupport
import Testing

@Suite("headway load --prefetch-settle bounds", .serialized)
@EngineActor
struct PrefetchBoundsCommandTests {
    // The slow page's prefetch holds all four slots with links that never answer or drip. Settle
    // is a hard bound: at its end they are cancelled, so the next page's prefetch gets its slots
    // and the third URL comes from the cache. The wall-time bound is a correctness bound, far
    // below what a held slot or connection costs (libsoup's 60 s, or forever for a drip).
    @Test func slowLinksNeverHoldTheRunPastSettle() async throws {
        let site = try SlowSite()
        defer { site.stop() }
        let arguments = ["load", "--prefetch", "--prefetch-settle", "1", site.page.absoluteString,
                         site.server.url.appendingPathComponent("page.html").absoluteString,
                         site.server.url.appendingPathComponent("second.html").absoluteString]
        let started = ContinuousClock.now
        let output = try await Task.detached { try CLI.run(arguments, timeout: 90) }.value
        let elapsed = ContinuousClock.now - started
        #expect(output.status == 0, "\(output.stderr)")
        #expect(elapsed < .seconds(15), "the run took \(elapsed)")
        let loads = try #require(try CLI.json(output)["loads"] as? [[String: Any]])
        #expect(loads.map { $0["title"] as? String } == ["Slow links", Fixtures.pageTitle, "Second"])
        let third = try #require(loads.last?["prefetch"] as? [String: Double])
        #expect(third["fromCache"] == 1, "second.html was prefetched after the slow links gave up their slots")
        #expect(site.stalling.requestedPaths.count == 4)
        #expect(site.stalling.openConnections == 0, "a slow prefetch outlived the run")
        #expect(output.leftover().isEmpty, "processes left behind: \(output.descendants)")
    }

    @Test func theRunEndsAtSettleWhenTheLastPageHasSlowLinks() async throws {
        let site = try SlowSite()
        defer { site.stop() }
        let arguments = ["load", "--prefetch", "--prefetch-settle", "1",
                         site.server.url.appendingPathComponent("page.html").absoluteString, site.page.absoluteString]
        let started = ContinuousClock.now
        let output = try await Task.detached { try CLI.run(arguments, timeout: 90) }.value
        let elapsed = ContinuousClock.now - started
        #expect(output.status == 0, "\(output.stderr)")
        #expect(elapsed < .seconds(15), "the run took \(elapsed)")
        #expect(output.leftover().isEmpty, "processes left behind: \(output.descendants)")
        // The run's end cancelled the slow prefetches: the server saw every connection closed.
        for _ in 0..<250 where site.stalling.openConnections > 0 {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(site.stalling.openConnections == 0)
    }
}
