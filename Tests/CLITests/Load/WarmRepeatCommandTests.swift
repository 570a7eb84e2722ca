import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// `--repeat N --warm`: N cold loads, then N warm ones in the last cold load's page, with the
/// HTTP cache kept, reported and summarised apart.
@Suite("headway load --repeat --warm", .serialized)
@EngineActor
struct WarmRepeatCommandTests {
    @Test func warmLoadsComeFromTheKeptCacheAndAreSummarisedApart() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/warm.html",
                     .html("<!doctype html><title>Warm</title><link rel=stylesheet href=/cached.css><p>x"))
        server.route("/cached.css", HTTPResponse(headers: [("Content-Type", "text/css"),
                                                           ("Cache-Control", "max-age=3600")],
                                                 body: Data("p { color: red }".utf8)))
        let url = server.url.appendingPathComponent("warm.html").absoluteString
        let output = try await Task.detached { try CLI.run(["load", url, "--repeat", "2", "--warm"]) }.value
        #expect(output.status == 0, "\(output.stderr)")
        let json = try CLI.json(output)
        let loads = try #require(json["loads"] as? [[String: Any]])
        #expect(loads.map { $0["run"] as? Int } == [1, 2, 1, 2])
        #expect(loads.map { $0["warm"] as? Bool } == [nil, nil, true, true])
        #expect(loads.allSatisfy { $0["title"] as? String == "Warm" })
        let summaries = try #require(json["summary"] as? [[String: Any]])
        #expect(summaries.count == 2)
        #expect(summaries.map { $0["warm"] as? Bool } == [nil, true])
        #expect(summaries.map { $0["runs"] as? Int } == [2, 2])
        // Each cold load fetched the stylesheet; the warm ones took it from the cache they kept.
        #expect(server.requests.filter { $0.path == "/cached.css" }.count == 2)
        #expect(server.requests.filter { $0.path == "/warm.html" }.count >= 2)
    }

    @Test func warmIsRefusedWhereItCannotApply() async throws {
        let output = try await Task.detached {
            try CLI.run(["load", "--urls", "/dev/null", "--jobs", "2", "--warm"])
        }.value
        #expect(output.status == 64)
        #expect(output.stderr == "headway: error: --jobs cannot be combined with --repeat, --warm, --prefetch, "
                + "--screenshot or --inspect\n", "\(output.stderr)")
    }
}
