import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// Under `--prefetch`, Resource Timing has no entries for the booster's requests: `resources`
/// comes from Headway's own records, each request with where its answer came from.
@Suite("headway load resources under the booster", .serialized)
@EngineActor
struct HandledResourcesCommandTests {
    @Test func aPrefetchedPagesResourcesComeFromTheCacheAndAColdOnesFromTheNetwork() async throws {
        let server = try BoosterSite.server()
        defer { server.stop() }
        let index = server.url.appendingPathComponent("index.html").absoluteString
        let a1 = server.url.appendingPathComponent("a1.html").absoluteString
        for (urls, source) in [([index, a1], "cache"), ([a1], "network")] {
            let output = try await Task.detached { try CLI.run(["load", "--prefetch"] + urls) }.value
            #expect(output.status == 0, "\(output.stderr)")
            let load = try #require(try CLI.loads(output, jsonl: false).last)
            #expect(load["title"] as? String == "A1")
            let resources = try #require(load["resources"] as? [String: Any])
            let handled = try #require(resources["handled"] as? [[String: Any]])
            let paths = Set(handled.compactMap { ($0["url"] as? String).flatMap(URL.init(string:))?.path })
            #expect(paths.isSuperset(of: ["/a1.css", "/a1.js", "/img1.svg", "/imp.css"]), "\(paths)")
            #expect(!paths.contains("/a1.html"), "the document is left out")
            #expect(handled.allSatisfy { $0["source"] as? String == source }, "\(source): \(handled)")
            #expect(handled.allSatisfy { ($0["startMs"] as? Double ?? -1) >= 0 && $0["durationMs"] is Double })
            #expect(handled.allSatisfy { $0["status"] as? Int == 200 })
            #expect(resources["count"] as? Int == handled.count)
            let bytes = handled.reduce(0) { $0 + ($1["bytes"] as? Int ?? 0) }
            #expect(bytes > 0 && resources["encodedBytes"] as? Int == bytes)
            #expect(resources["transferBytes"] as? Int == (source == "network" ? bytes : 0))
        }
        // The prefetched page's subresources reached the server only as prefetches.
        #expect(server.requests.filter { $0.path == "/a1.css" && $0.purpose != "prefetch" }.count == 1)
    }
}
