import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// `--wait-for-text`, `--wait-for-function` and `--wait-for-network-idle`: what the snippets see
/// once the wait is over, and the timeout that names what was awaited.
@Suite("headway load waits", .serialized)
@EngineActor
struct WaitCommandTests {
    // Text and a flag that come after the load event; then two requests 100 ms apart.
    static let late = """
        <!doctype html><title>Late</title><body><p>Loading</p><script>
        addEventListener('load', () => setTimeout(() => {
          document.querySelector('p').textContent = 'All done';
          window.ready = true;
          fetch('/first.txt').then(r => r.text()).then(() => setTimeout(() =>
            fetch('/second.txt').then(r => r.text()).then(() => { window.chained = true; }), 100));
        }, 300));
        </script></body>
        """

    static func server() throws -> HTTPServer {
        let server = try Fixtures.server()
        server.route("/late.html", .html(late))
        server.route("/first.txt", HTTPResponse(headers: [("Content-Type", "text/plain")], body: Data("1".utf8)))
        server.route("/second.txt", HTTPResponse(headers: [("Content-Type", "text/plain")], body: Data("2".utf8)))
        return server
    }

    @Test func eachWaitHoldsTheSnippetsUntilItsConditionHolds() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let url = server.url.appendingPathComponent("late.html").absoluteString
        let look = try Fixtures.file("late.js", "document.body.innerText.trim() + '|' + (window.ready === true)")
        for wait in [["--wait-for-text", "All done"], ["--wait-for-function", "window.ready === true"],
                     ["--wait-for-function", "new Promise(r => setTimeout(() => r(window.ready), 10))"]] {
            let output = try await run(["load", url, "--script", look, "--timeout", "20"] + wait)
            #expect(output.status == 0, "\(wait): \(output.stderr)")
            let load = try #require(try CLI.loads(output, jsonl: false).first)
            #expect((load["scripts"] as? [[String: Any]])?.first?["value"] as? String == "All done|true", "\(wait)")
        }
    }

    @Test func networkIdleWaitsOutTheQuietTimeGiven() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let url = server.url.appendingPathComponent("late.html").absoluteString
        let look = try Fixtures.file("chained.js", "window.chained === true")
        // 2 s of quiet bridge the page's 300 ms and 100 ms pauses: both requests are done.
        let output = try await run(["load", url, "--script", look, "--wait-for-network-idle", "2000",
                                    "--timeout", "30"])
        #expect(output.status == 0, "\(output.stderr)")
        let load = try #require(try CLI.loads(output, jsonl: false).first)
        #expect((load["scripts"] as? [[String: Any]])?.first?["value"] as? Bool == true)
        #expect(server.requests.contains { $0.path == "/second.txt" })
    }

    @Test func aWaitThatRunsOutNamesWhatItAwaited() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let url = server.url.appendingPathComponent("page.html").absoluteString
        let cases: [([String], Int32, String)] = [
            (["--wait-for-text", "Never here"], 4, #"the text "Never here" did not appear within"#),
            (["--wait-for-function", "window.never === 1"], 4, #"the predicate "window.never === 1" was not truthy"#),
            (["--wait-for-function", "nope("], 5, "SyntaxError"),
        ]
        for (wait, status, message) in cases {
            let output = try await run(["load", url, "--timeout", "2"] + wait)
            #expect(output.status == status, "\(wait): \(output.stderr)")
            #expect(output.stderr.contains(message), "\(wait): \(output.stderr)")
            #expect(output.stderr.split(separator: "\n").count == 1, "\(wait): \(output.stderr)")
            let load = try #require(try CLI.loads(output, jsonl: false).first)
            #expect(load["title"] as? String == Fixtures.pageTitle, "the load's result stays: \(wait)")
            #expect(load["error"] != nil)
        }
    }

    func run(_ arguments: [String]) async throws -> CLI.Output {
        try await Task.detached { try CLI.run(arguments, timeout: 120) }.value
    }
}
