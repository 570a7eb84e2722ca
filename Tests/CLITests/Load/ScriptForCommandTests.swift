import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// `--script-for N:FILE`: a URL argument's own snippets run after its load only, after the
/// `--script` files; a position past the URL arguments is a usage error.
@Suite("headway load --script-for", .serialized)
@EngineActor
struct ScriptForCommandTests {
    @Test func eachURLRunsItsOwnSnippetsAfterTheCommonOnes() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let first = server.url.appendingPathComponent("page.html").absoluteString
        let second = server.url.appendingPathComponent("second.html").absoluteString
        let common = try Fixtures.file("common.js", "'common ' + location.pathname")
        let mine = try Fixtures.file("mine.js", "'mine ' + location.pathname")
        let also = try Fixtures.file("also.js", "'also ' + location.pathname")
        for extra in [[String](), ["--repeat", "2"], ["--prefetch"]] {
            let output = try await run(["load", first, second, "--script", common, "--script-for", "2:\(mine)",
                                        "--script-for", "2:\(also)"] + extra)
            #expect(output.status == 0, "\(output.stderr)")
            let loads = try CLI.loads(output, jsonl: false)
            #expect(loads.count == (extra.contains("--repeat") ? 4 : 2))
            for load in loads {
                let values = (load["scripts"] as? [[String: Any]])?.compactMap { $0["value"] as? String }
                let second = (load["url"] as? String)?.hasSuffix("second.html") == true
                #expect(values == (second ? ["common /second.html", "mine /second.html", "also /second.html"]
                                          : ["common /page.html"]), "\(extra)")
            }
        }
    }

    @Test func aPositionPastTheURLArgumentsIsOneLineAndExit64() async throws {
        let script = try Fixtures.file("any.js", "1")
        let output = try await run(["load", "http://127.0.0.1:9/a", "http://127.0.0.1:9/b",
                                    "--script-for", "3:\(script)"])
        #expect(output.status == 64)
        #expect(output.stderr == "headway: error: --script-for 3: there are 2 URL arguments (--script-for numbers "
                + "them from 1; URLs from --urls have none)\n", "\(output.stderr)")
    }

    func run(_ arguments: [String]) async throws -> CLI.Output {
        try await Task.detached { try CLI.run(arguments, timeout: 120) }.value
    }
}
