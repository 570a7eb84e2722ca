import Foundation
import Headway
import HeadwayTestSupport
import Testing

@Suite("headway load when a web process dies", .serialized)
@EngineActor
struct CrashCommandTests {
    @Test func aPageKilledForItsMemoryFailsAndTheNextURLLoadsInAFreshProcess() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let list = try Fixtures.file("crash-urls.txt", """
            \(server.url.absoluteString)hog.html
            \(server.url.absoluteString)second.html
            """)
        let output = try await Task.detached {
            try CLI.run(
                ["load", "--urls", list, "--format", "jsonl", "--memory-limit", "400", "--timeout", "60"],
                timeout: 120
            )
        }.value
        #expect(output.status == 69, "\(output.stderr)")
        #expect(output.stderr.contains("used more memory than its limit"))
        let objects = try output.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.count == 2)
        #expect((objects.first?["error"] as? [String: Any])?["code"] as? String == "engine")
        #expect(objects.last?["title"] as? String == "Second", "\(output.stdout) \(output.stderr)")
        #expect(objects.last?["status"] as? Int == 200)
    }

    @Test func theNetworkProcessKilledDuringALoadExitsWith69() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/waits.html", .html("<!doctype html><title>Waits</title><img src='/hang'>"))
        let url = server.url.appendingPathComponent("waits.html").absoluteString
        let run = Task.detached { try CLI.run(["load", url, "--timeout", "60"], timeout: 120) }
        let deadline = ContinuousClock.now + .seconds(60)
        while server.requestCount(path: "/hang") == 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        let killed = descendants(of: getpid()).filter { $0.value.hasPrefix("WebKitNetwork") }.map(\.key)
        for pid in killed { kill(pid, SIGKILL) }
        let output = try await run.value
        try #require(!killed.isEmpty, "no WebKitNetworkProcess below headway")
        #expect(output.status == 69, "\(output.status) \(output.stderr)")
        let lines = output.stderr.split(separator: "\n").filter { $0.contains("network process") }
        #expect(lines.count == 1, "\(output.stderr)")
        #expect(lines.first?.contains("waits.html") == true)
    }
}
