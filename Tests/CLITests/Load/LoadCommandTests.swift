import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// End-to-end runs of the built `headway` binary against a real server on loopback.
@Suite("headway load", .serialized)
@EngineActor
struct LoadCommandTests {
    @Test func jsonReportHasTitleTimingAndSnippetValue() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let script = try Fixtures.file("title.js", "document.title")
        let output = try await runCLI(["load", server.url.appendingPathComponent("page.html").absoluteString,
                                       "--script", script, "--format", "json"])
        #expect(output.status == 0, "\(output.stderr)")
        let json = try CLI.json(output)
        let load = try #require((json["loads"] as? [[String: Any]])?.first)
        #expect(load["title"] as? String == Fixtures.pageTitle)
        #expect(load["status"] as? Int == 200)
        #expect(load["finalURL"] as? String == server.url.appendingPathComponent("page.html").absoluteString)
        let timing = try #require(load["timing"] as? [String: Any])
        #expect((timing["loadEventEnd"] as? Double ?? 0) > 0)
        for key in [
            "started", "committed", "finished", "responseStart", "domInteractive", "domContentLoadedEventEnd",
            "firstContentfulPaint",
        ] {
            #expect(timing.keys.contains(key), "timing.\(key)")
        }
        let resources = try #require(load["resources"] as? [String: Any])
        #expect(resources["count"] as? Int == 2)
        let scripts = try #require(load["scripts"] as? [[String: Any]])
        #expect(scripts.first?["file"] as? String == script)
        #expect(scripts.first?["value"] as? String == Fixtures.pageTitle)
        let console = try #require(load["console"] as? [[String: Any]])
        #expect(console.contains { $0["text"] as? String == "fixture says 42" })
        #expect((load["errors"] as? [Any])?.isEmpty == true)
    }

    @Test func severalURLsLoadInOrderInOnePageAndTextFormatIsReadable() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let output = try await runCLI(["load", server.url.appendingPathComponent("page.html").absoluteString,
                                       server.url.appendingPathComponent("second.html").absoluteString,
                                       "--format", "text"])
        #expect(output.status == 0)
        #expect(output.stdout.contains("\"\(Fixtures.pageTitle)\""))
        #expect(output.stdout.contains("\"Second\""))
        #expect(output.stdout.contains("loadEventEnd") == false)
        #expect(output.stdout.contains("load "))
        let first = try #require(output.stdout.range(of: "page.html"))
        let second = try #require(output.stdout.range(of: "second.html"))
        #expect(first.lowerBound < second.lowerBound)
    }

    @Test func screenshotShowsThePage() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cli-shot-\(getpid()).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let output = try await runCLI([
            "load", server.url.appendingPathComponent("page.html").absoluteString, "--screenshot", path,
        ])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(!output.stderr.contains("blank"))
        let shot = try #require(try CLI.json(output)["screenshot"] as? [String: Any])
        #expect(shot["width"] as? Int == 1280)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(data.count > 1000 && data.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test func repeatSummarisesColdLoads() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let output = try await runCLI([
            "load", server.url.appendingPathComponent("page.html").absoluteString, "--repeat", "3",
        ])
        #expect(output.status == 0)
        let json = try CLI.json(output)
        #expect((json["loads"] as? [Any])?.count == 3)
        let summary = try #require((json["summary"] as? [[String: Any]])?.first)
        #expect(summary["runs"] as? Int == 3)
        let load = try #require((summary["metrics"] as? [String: Any])?["loadEventEnd"] as? [String: Double])
        #expect(Set(load.keys) == ["min", "median", "p95", "max"])
        #expect(server.requestCount(path: "/style.css") == 3)
    }

    /// Runs the CLI off the engine thread so the in-process server keeps answering.
    func runCLI(_ arguments: [String], timeout: Double = 120) async throws -> CLI.Output {
        try await Task.detached { try CLI.run(arguments, timeout: timeout) }.value
    }
}
