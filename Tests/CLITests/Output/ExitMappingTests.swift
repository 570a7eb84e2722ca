import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// Failures that are not a failed load get their own exit status and one line on stderr.
@Suite("exit statuses of failures that are not a load", .serialized)
@EngineActor
struct ExitMappingTests {
    @Test func aPortInUseIsNotAFailedLoad() async throws {
        let busy = try HTTPServer()                     // holds the port for the whole test
        defer { busy.stop() }
        let root = URL(fileURLWithPath: try Fixtures.file("index.html", "<title>x</title>")).deletingLastPathComponent()
        let port = busy.port
        let output = try await Task.detached {
            try CLI.run(["serve", root.path, "--port", String(port)], timeout: 60)
        }.value
        #expect(output.status == 71, "\(output.stderr)")
        #expect(output.stderr.split(separator: "\n").count == 1)
        #expect(output.stderr.contains("could not listen on 127.0.0.1:\(port)"))
        #expect(output.leftover().isEmpty)
    }

    @Test func aScreenshotThatCannotBeWrittenIsNotAMissingScript() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let target = "/proc/headway-no-such-dir/shot.png"
        let url = server.url.appendingPathComponent("page.html").absoluteString
        let output = try await Task.detached { try CLI.run(["load", url, "--screenshot", target], timeout: 60) }.value
        #expect(output.status == 73, "\(output.stderr)")
        #expect(output.stderr.split(separator: "\n").count == 1)
        #expect(output.stderr.contains("write the screenshot /proc/headway-no-such-dir/shot.png"))
        #expect(output.leftover().isEmpty)
    }
}
