import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// `headway load`'s JSON matches the published schema (CLI.run checks every run's output), and
/// the check fails for output that drifts from it.
@Suite("headway load output schema", .serialized)
@EngineActor
struct OutputSchemaTests {
    @Test func jsonAndJsonlMatchTheSchema() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let page = server.url.appendingPathComponent("page.html").absoluteString
        let script = try Fixtures.file("schema.js", "({title: document.title, n: 1})")
        for format in ["json", "jsonl"] {
            let output = try await Task.detached {
                try CLI.run(["load", page, "--script", script, "--repeat", "2", "--prefetch", "--format", format])
            }.value
            #expect(output.status == 0, "\(output.stderr)")
            #expect(CLI.schemaProblems(output.stdout, jsonl: format == "jsonl").isEmpty)
            #expect(!output.stdout.isEmpty)
        }
    }

    @Test func outputThatDriftsFromTheSchemaIsCaught() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let url = server.url.appendingPathComponent("page.html").absoluteString
        let output = try await Task.detached { try CLI.run(["load", url]) }.value
        var json = try CLI.json(output)
        var load = try #require((json["loads"] as? [[String: Any]])?.first)
        load["slowestEver"] = 1                 // a member the schema does not document
        load["status"] = "200"                  // the wrong type
        load.removeValue(forKey: "timing")      // a required member missing
        json["loads"] = [load]
        let problems = JSONSchema.loadOutput.problems(json)
        #expect(problems.contains { $0.contains("unexpected member slowestEver") }, "\(problems)")
        #expect(problems.contains { $0.contains("$.loads[0].status") }, "\(problems)")
        #expect(problems.contains { $0.contains("missing timing") }, "\(problems)")
    }
}
