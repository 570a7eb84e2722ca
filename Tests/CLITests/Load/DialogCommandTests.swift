import Foundation
import Headway
import HeadwayTestSupport
import Testing

@Suite("headway load with JavaScript dialogs", .serialized)
@EngineActor
struct DialogCommandTests {
    @Test func aPageThatAlertsDoesNotHoldUpTheBatch() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route(
            "/alert.html",
            .html("<!doctype html><title>Alerts</title><script>alert('stop right there')</script>")
        )
        let list = try Fixtures.file("dialog-urls.txt", """
            \(server.url.absoluteString)alert.html
            \(server.url.absoluteString)second.html
            """)
        let output = try await Task.detached {
            try CLI.run(["load", "--urls", list, "--format", "jsonl", "--timeout", "20"], timeout: 60)
        }.value
        #expect(output.status == 0, "\(output.stderr)")
        let objects = try output.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.count == 2)
        #expect(objects.first?["title"] as? String == "Alerts")
        let dialogs = try #require(objects.first?["dialogs"] as? [[String: Any]])
        #expect(dialogs.count == 1)
        #expect(dialogs.first?["type"] as? String == "alert")
        #expect(dialogs.first?["message"] as? String == "stop right there")
        #expect(dialogs.first?.keys.contains("answer") == true)
        #expect(objects.last?["title"] as? String == "Second")
        #expect((objects.last?["dialogs"] as? [Any])?.isEmpty == true)
    }

    @Test func dialogsAcceptAnswersConfirmAndPromptDuringLoadAndInSnippets() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let script = try Fixtures.file("ask.js", "[confirm('ok?'), prompt('why?', 'because')]")
        let url = server.url.appendingPathComponent("dialogs.html").absoluteString
        let output = try await Task.detached {
            try CLI.run(["load", url, "--script", script, "--dialogs", "accept", "--timeout", "20"], timeout: 60)
        }.value
        #expect(output.status == 0, "\(output.stderr)")
        let load = try #require((try CLI.json(output)["loads"] as? [[String: Any]])?.first)
        let dialogs = try #require(load["dialogs"] as? [[String: Any]])
        #expect(dialogs.map { $0["type"] as? String } == ["confirm", "prompt", "alert", "confirm", "prompt"])
        #expect(dialogs[0]["answer"] as? Bool == true)
        #expect(dialogs[1]["defaultText"] as? String == "anonymous")
        #expect(dialogs[1]["answer"] as? String == "anonymous")
        #expect(dialogs[2]["answer"] is NSNull)
        let value = try #require((load["scripts"] as? [[String: Any]])?.first?["value"] as? [Any])
        #expect(value.first as? Bool == true)
        #expect(value.last as? String == "because")
        let dismissed = try await Task.detached {
            try CLI.run(["load", url, "--dialogs", "dismiss"], timeout: 60)
        }.value
        let first = try #require((try CLI.json(dismissed)["loads"] as? [[String: Any]])?.first)
        #expect((first["dialogs"] as? [[String: Any]])?.first?["answer"] as? Bool == false)
        #expect((first["dialogs"] as? [[String: Any]])?[1]["answer"] is NSNull)
    }
}
