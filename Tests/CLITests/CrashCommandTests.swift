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
            try CLI.run(["load", "--urls", list, "--format", "jsonl", "--memory-limit", "200", "--timeout", "60"], timeout: 120)
        }.value
        #expect(output.status == 69, "\(output.stderr)")
        #expect(output.stderr.contains("used more memory than its limit"))
        let objects = try output.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.count == 2)
        #expect((objects.first?["error"] as? [String: Any])?["code"] as? String == "engine")
        #expect(objects.last?["title"] as? String == "Second")
        #expect(objects.last?["status"] as? Int == 200)
    }
}
