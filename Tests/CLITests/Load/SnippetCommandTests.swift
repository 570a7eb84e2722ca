import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// Snippet errors and navigations as `headway load` reports them.
@Suite("headway load snippets", .serialized)
@EngineActor
struct SnippetCommandTests {
    @Test func aSyntaxErrorNamesTheSnippetFileAndLine() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let script = try Fixtures.file("bad.js", "const a = 1;\nconst b = 2;\nconst c = = 3;\n")
        let output = try await runCLI(["load", server.url.appendingPathComponent("page.html").absoluteString,
                                       "--script", script, "--format", "json"])
        #expect(output.status == 5, "\(output.stderr)")
        let load = try #require((try CLI.json(output)["loads"] as? [[String: Any]])?.first)
        let error = try #require((load["scripts"] as? [[String: Any]])?.first?["error"] as? [String: Any])
        #expect(error["file"] as? String == script)
        #expect(error["line"] as? Int == 3)
        #expect(output.stderr == "headway: error: script \(script):3:0: SyntaxError: Unexpected token '='\n")
    }

    @Test func aNavigationToAMissingPageReportsItsStatus() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let script = try Fixtures.file("gone.js", "location.href = '/missing'; 'leaving'")
        let output = try await runCLI(["load", server.url.appendingPathComponent("page.html").absoluteString,
                                       "--script", script, "--format", "json"])
        #expect(output.status == 6, "\(output.stderr)")
        let load = try #require((try CLI.json(output)["loads"] as? [[String: Any]])?.first)
        let result = try #require((load["scripts"] as? [[String: Any]])?.first)
        #expect(result["value"] as? String == "leaving")
        #expect(result["navigatedTo"] as? String == server.url.appendingPathComponent("missing").absoluteString)
        #expect(result["navigatedStatus"] as? Int == 404)
        #expect(output.stderr.split(separator: "\n").count == 1)
        #expect(output.stderr.contains("answered HTTP 404"))
    }

    func runCLI(_ arguments: [String], timeout: Double = 120) async throws -> CLI.Output {
        try await Task.detached { try CLI.run(arguments, timeout: timeout) }.value
    }
}

@Suite("headway load with capped lists", .serialized)
@EngineActor
struct CappedListCommandTests {
    @Test func theJSONSaysWhenConsoleWasCut() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/noisy.html", .html(CappedListFixture.noisy))
        let url = server.url.appendingPathComponent("noisy.html").absoluteString
        let output = try await Task.detached { try CLI.run(["load", url, "--format", "json"], timeout: 120) }.value
        #expect(output.status == 0, "\(output.stderr)")
        let load = try #require((try CLI.json(output)["loads"] as? [[String: Any]])?.first)
        #expect((load["console"] as? [Any])?.count == 10_000)
        #expect(load["consoleTotal"] as? Int == 10_050)
        #expect(load["consoleTruncated"] as? Bool == true)
        #expect(load["errorsTotal"] as? Int == 0)
        #expect(load["errorsTruncated"] as? Bool == false)
    }
}

enum CappedListFixture {
    static let noisy = """
        <!doctype html><html><head><title>Noisy</title></head><body><script>
        for (let i = 0; i < 10050; i++) console.log('line ' + i);
        </script></body></html>
        """
}

@Suite("headway load of a redirect to file:", .serialized)
@EngineActor
struct FileRedirectCommandTests {
    @Test(arguments: [true, false])
    func aRedirectToAFileFailsWithOneLineAndExit3(prefetch: Bool) async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/to-file", .redirect(to: "file:///etc/passwd"))
        let url = server.url.appendingPathComponent("to-file").absoluteString
        let arguments = ["load", url, "--format", "json"] + (prefetch ? ["--prefetch"] : [])
        let output = try await Task.detached { try CLI.run(arguments, timeout: 120) }.value
        #expect(output.status == 3, "\(output.stderr)")
        // Without the booster it is WebKit that refused the redirect, and the line says how.
        let cause = prefetch ? "" : " (WebKitNetworkError 302: Load request cancelled)"
        #expect(
            output.stderr == "headway: error: \(url) redirected to file:///etc/passwd: "
                + "Headway does not follow a web page's redirect out of http(s)\(cause)\n"
        )
        let load = try #require((try CLI.json(output)["loads"] as? [[String: Any]])?.first)
        #expect((load["error"] as? [String: Any])?["code"] as? String == "blockedURL")
    }
}
