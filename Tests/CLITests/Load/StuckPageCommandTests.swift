import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// The CLI stops pages stuck in JavaScript at their timeout and leaves no web process running
/// after it exits. Only the process tree of the `headway` started here is checked.
@Suite("headway load with pages stuck in JavaScript", .serialized)
@EngineActor
struct StuckPageCommandTests {
    @Test func aStuckSnippetDoesNotHoldUpTheNextURL() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/spin.html", .html("""
            <!doctype html><title>Spin</title>
            <script>addEventListener('load', () => setTimeout(() => { while (true) {} }, 500));</script>
            """))
        let spin = try Fixtures.file("spin.js", "while (true) {}")
        let arguments = ["load", server.url.appendingPathComponent("spin.html").absoluteString,
                         server.url.appendingPathComponent("second.html").absoluteString,
                         "--script", spin, "--script-timeout", "1"]
        let clock = ContinuousClock()
        let start = clock.now
        let output = try await Task.detached { try CLI.run(arguments, timeout: 120) }.value
        #expect(clock.now - start < .seconds(25), "the second URL waited on the stuck page")
        #expect(output.status == 5, "\(output.stderr)")
        let loads = try #require(try CLI.json(output)["loads"] as? [[String: Any]])
        #expect(loads.map { $0["title"] as? String } == ["Spin", "Second"])
        #expect(loads.allSatisfy { $0["status"] as? Int == 200 })
        let errors = loads.compactMap { ($0["scripts"] as? [[String: Any]])?.first?["error"] as? [String: Any] }
        #expect(errors.count == 2)
        #expect(errors.allSatisfy { ($0["message"] as? String)?.contains("web process was terminated") == true })
        let webProcesses = output.descendants.filter { $0.value.hasPrefix("WebKitWebProc") }.map(\.key)
        #expect(!webProcesses.isEmpty, "no web process was seen while headway ran")
        #expect(await stillRunning(webProcesses, after: 3).isEmpty)
    }

    @Test func aWebProcessStillSpinningAtExitEndsWithHeadway() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        // Returns at once; the page starts spinning when it is closed, as headway exits.
        let script = try Fixtures.file(
            "spin-on-close.js",
            "addEventListener('pagehide', () => { while (true) {} }); 'armed'"
        )
        let url = server.url.appendingPathComponent("page.html").absoluteString
        let clock = ContinuousClock()
        let start = clock.now
        let output = try await Task.detached { try CLI.run(["load", url, "--script", script], timeout: 120) }.value
        // Without terminating it, closing the spinning page held headway's exit up for about 10 s.
        // Normally under a second; the hold it guards against was about 10 s.
        #expect(clock.now - start < .seconds(9))
        #expect(output.status == 0, "\(output.stderr)")
        let webProcesses = output.descendants.filter { $0.value.hasPrefix("WebKitWebProc") }.map(\.key)
        #expect(!webProcesses.isEmpty, "no web process was seen while headway ran")
        // Left alone, a busy web process runs on for about 10 s after the UI process is gone.
        #expect(await stillRunning(webProcesses, after: 3).isEmpty)
    }
}
