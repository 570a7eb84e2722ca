import Foundation
import Headway
import HeadwayTestSupport
import Testing

@Suite("headway load --memory-limit against a tight allocation loop", .serialized)
@EngineActor
struct MemoryLimitCommandTests {
    @Test func aPageAllocatingInATightLoopExits69WithOneLineNamingTheLimit() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let url = server.url.appendingPathComponent("loop-hog.html").absoluteString
        let output = try await Task.detached {
            try CLI.run(["load", url, "--memory-limit", "300", "--timeout", "20"], timeout: 60)
        }.value
        #expect(output.status == 69, "\(output.stderr)")
        let lines = output.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(output.stderr)")
        #expect(output.stderr.contains("used more memory than its limit (300 MB)"), "\(output.stderr)")
    }
}
