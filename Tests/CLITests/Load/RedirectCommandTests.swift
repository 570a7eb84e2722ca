import Foundation
import Headway
import HeadwayTestSupport
import Testing

@Suite("headway load, redirects", .serialized)
@EngineActor
struct RedirectCommandTests {
    @Test(arguments: [false, true])
    func aScriptRedirectIsReportedAtItsTarget(prefetch: Bool) async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route(
            "/go.html",
            .html("<!doctype html><title>Go</title><script>location.replace('/second.html')</script>")
        )
        server.route("/hop", .redirect(to: "/go.html"))
        let start = server.url.appendingPathComponent("hop").absoluteString
        let arguments = ["load", start, "--format", "json"] + (prefetch ? ["--prefetch"] : [])
        let output = try await Task.detached { try CLI.run(arguments) }.value
        #expect(output.status == 0, "\(output.stderr)")
        let load = try #require((try CLI.json(output)["loads"] as? [[String: Any]])?.first)
        let middle = server.url.appendingPathComponent("go.html").absoluteString
        let target = server.url.appendingPathComponent("second.html").absoluteString
        #expect(load["url"] as? String == start)
        #expect(load["finalURL"] as? String == target)
        #expect(load["title"] as? String == "Second")
        let hops = try #require(load["redirects"] as? [[String: String]])
        #expect(hops == [
            ["from": start, "to": middle, "kind": "http"], ["from": middle, "to": target, "kind": "client"],
        ])
    }
}
