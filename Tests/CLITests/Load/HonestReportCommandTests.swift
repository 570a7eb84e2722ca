import Foundation
import HeadwayTestSupport
import Testing

/// `headway load` says when its resource figures are partial, and names an init script's error.
@Suite("headway load honest reports", .serialized)
struct HonestReportCommandTests {
    static func site() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("headway-honest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try Fixtures.svg.write(to: root.appendingPathComponent("dot.svg"), atomically: true, encoding: .utf8)
        for (name, count) in [("many.html", 320), ("few.html", 10)] {
            let html = "<!doctype html><title>Images</title>"
                + (0..<count).map { "<img src=\"dot.svg?\($0)\">" }.joined()
            try html.write(to: root.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return root
    }

    @Test func resourcesPastTheTimingBufferAreMarkedTruncated() throws {
        let root = try Self.site()
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try NginxServer(root: root)
        defer { nginx.stop() }
        let output = try CLI.run(["load", nginx.url.appendingPathComponent("many.html").absoluteString,
                                  nginx.url.appendingPathComponent("few.html").absoluteString])
        #expect(output.status == 0, "\(output.stderr)")
        let loads = try #require(try CLI.json(output)["loads"] as? [[String: Any]])
        let resources = loads.map { $0["resources"] as? [String: Any] ?? [:] }
        #expect(resources.first?["truncated"] as? Bool == true)
        #expect((resources.first?["count"] as? Int ?? 0) >= 320)
        #expect(resources.last?["truncated"] as? Bool == false)
        #expect(resources.last?["count"] as? Int == 10)
    }

    @Test func anInitScriptsErrorNamesItsFileAndLine() throws {
        let root = try Self.site()
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try NginxServer(root: root)
        defer { nginx.stop() }
        let script = try Fixtures.file("thrower.js", "const kept = 2;\nwindow.ok = kept;\nthrow new Error(\"boom\");\n")
        let output = try CLI.run(["load", nginx.url.appendingPathComponent("few.html").absoluteString,
                                  "--init-script", script])
        #expect(output.status == 0, "\(output.stderr)")
        let load = try #require((try CLI.json(output)["loads"] as? [[String: Any]])?.first)
        let error = try #require((load["errors"] as? [[String: Any]])?.first, "\(load)")
        #expect((error["message"] as? String ?? "").contains("boom"), "\(error)")
        #expect((error["file"] as? String ?? "").hasSuffix("thrower.js"), "\(error)")
        #expect(error["line"] as? Int == 3, "\(error)")
    }
}
