import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// `headway load --script` on a page that replaces JSON.stringify and JSON.parse.
@Suite("headway load on a page that replaces JSON", .serialized)
@EngineActor
struct HostileGlobalsCommandTests {
    @Test func aSnippetOnAPageThatReplacesJSONReportsItsValue() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/json.html", .html("""
            <!doctype html><title>Replaced</title><script>
            JSON.stringify = () => '"'; JSON.parse = () => { throw 1; }; console.log('logged', [1, 2]);
            </script>
            """))
        let script = try Fixtures.file("value.js", "({ title: document.title, n: [1, 2, 3].length })")
        let url = server.url.appendingPathComponent("json.html").absoluteString
        let output = try await Task.detached {
            try CLI.run(["load", url, "--script", script, "--format", "json"], timeout: 60)
        }.value
        #expect(output.status == 0, "\(output.stderr)")
        let load = try #require((try CLI.json(output)["loads"] as? [[String: Any]])?.first)
        let result = try #require((load["scripts"] as? [[String: Any]])?.first)
        let value = try #require(result["value"] as? [String: Any], "\(result)")
        #expect(value["title"] as? String == "Replaced")
        #expect(value["n"] as? Int == 3)
        let console = load["console"] as? [[String: Any]]
        #expect(console?.first?["text"] as? String == "logged [1,2]", "\(String(describing: console))")
        #expect(output.stderr.isEmpty, "\(output.stderr)")
    }
}
