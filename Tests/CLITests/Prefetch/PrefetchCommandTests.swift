import Foundation
import Headway
import HeadwayTestSupport
import Testing

@Suite("headway load --prefetch", .serialized)
@EngineActor
struct PrefetchCommandTests {
    @Test func prefetchFiguresAgreeWithTheServerLog() async throws {
        let server = try BoosterSite.server()
        defer { server.stop() }
        let arguments = ["load", "--prefetch", server.url.appendingPathComponent("index.html").absoluteString,
                         server.url.appendingPathComponent("a3.html").absoluteString]
        let output = try await Task.detached { try CLI.run(arguments) }.value
        #expect(output.status == 0, "\(output.stderr)")
        let json = try CLI.json(output)
        let loads = try #require(json["loads"] as? [[String: Any]])
        #expect(loads.count == 2)
        let first = try #require(loads[0]["prefetch"] as? [String: Double])
        let second = try #require(loads[1]["prefetch"] as? [String: Double])
        #expect(first["fromCache"] == 0 && first["joined"] == 0 && first["fetched"] == 1)
        #expect(second["fromCache"] == 1 && second["joined"] == 0 && second["fetched"] == 0)
        #expect((second["slowestCacheAnswerMs"] ?? -1) >= 0)
        #expect(loads[1]["title"] as? String == "A3")
        #expect(loads[1]["finalURL"] as? String == server.url.appendingPathComponent("a3.html").absoluteString)

        let log = server.requests
        #expect(
            log.filter { $0.purpose != "prefetch" }.map(\.path) == ["/index.html"],
            "only the index reached the server unprefetched"
        )
        #expect(server.requestCount(path: "/a3.html") == 1)
        let prefetch = try #require(json["prefetch"] as? [String: Any])
        let run = prefetch.compactMapValues { $0 as? Int }
        let prefetched = log.filter { $0.purpose == "prefetch" }
        // bytesPrefetched counts what was kept; the no-store page was fetched but dropped.
        #expect(run["bytesPrefetched"] == prefetched.filter { $0.path != "/nostore.html" }.reduce(0) { $0 + $1.bytes })
        #expect(run["skipped"] == 1)
        #expect(run["pagesPrefetched"] == prefetched.filter { BoosterSite.prefetchable.contains($0.path) }.count - 1,
                "the no-store page was fetched but not kept")
        let a3Bytes = try #require(prefetched.first { $0.path == "/a3.html" }?.bytes)
        #expect(run["bytesUnused"] == run["bytesPrefetched"]! - a3Bytes)
        #expect(run["linksFound"] == 13 && run["linksEligible"] == 4)
        let leftOut = try #require(prefetch["linksLeftOut"] as? [String: Int])
        #expect(leftOut == ["download": 1, "nofollow": 1, "optOut": 1, "scheme": 2, "host": 1, "query": 1,
                            "sideEffect": 1, "duplicate": 1, "alreadyPrefetched": 0, "eagerness": 0, "cap": 0,
                            "budget": 0, "cancelled": 0, "queued": 0])
    }

    @Test func prefetchOptionsNeedPrefetch() throws {
        for option in [["--prefetch-all-hosts"], ["--prerender", "2"], ["--prefetch-eagerness", "eager"],
                       ["--prefetch-budget", "1M"], ["--prefetch-max-pages", "3"]] {
            let output = try CLI.run(["load", "http://127.0.0.1:1/"] + option)
            #expect(output.status == 64)
            #expect(output.stderr.contains("need --prefetch"))
        }
        let tooMany = try CLI.run(["load", "--prefetch", "--prerender", "21", "http://127.0.0.1:1/"])
        #expect(tooMany.status == 64)
        #expect(tooMany.stderr.contains("--prerender must be 0 to 20, not 21"))
        let bad: [([String], String)] = [
            (["--prefetch-eagerness", "sometimes"], "sometimes"),
            (["--prefetch-budget", "-5"], "--prefetch-budget must be a byte count"),
            (["--prefetch-max-pages", "5000"], "--prefetch-max-pages must be 0 to 1000"),
        ]
        for (option, message) in bad {
            let output = try CLI.run(["load", "--prefetch"] + option + ["http://127.0.0.1:1/"])
            #expect(output.status == 64, "\(option)")
            #expect(output.stderr.contains(message), "\(output.stderr)")
            #expect(output.stderr.split(separator: "\n").count == 1, "one line: \(output.stderr)")
        }
    }

    @Test func aPrerenderedArticleIsShownAndSaysSo() async throws {
        let server = try BoosterSite.server()
        defer { server.stop() }
        let arguments = ["load", "--prefetch", "--prerender", "4",
                         server.url.appendingPathComponent("index.html").absoluteString,
                         server.url.appendingPathComponent("a3.html").absoluteString,
                         "--script", try Fixtures.file("title.js", "document.title")]
        let output = try await Task.detached { try CLI.run(arguments) }.value
        #expect(output.status == 0, "\(output.stderr)")
        let loads = try #require(try CLI.json(output)["loads"] as? [[String: Any]])
        #expect((loads[0]["prefetch"] as? [String: Any])?["prerendered"] == nil)
        let shown = try #require(loads[1]["prefetch"] as? [String: Any])
        #expect(shown["prerendered"] as? Bool == true)
        #expect(loads[1]["title"] as? String == "A3")
        #expect(((loads[1]["scripts"] as? [[String: Any]])?.first?["value"]) as? String == "A3")
        #expect(server.requestCount(path: "/a3.html") == 1)
    }
}
