import Foundation
import Headway
import HeadwayTestSupport
import Testing

@Suite("headway load --urls (batch)", .serialized)
@EngineActor
struct BatchTests {
    @Test func jsonlStreamsEveryLineAndABadURLDoesNotStopTheBatch() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let list = try Fixtures.file("urls.txt", """
            \(server.url.absoluteString)page.html
            # a comment and a blank line are skipped

            not a url
            \(server.url.absoluteString)missing
            http://127.0.0.1:9/
            \(server.url.absoluteString)second.html
            """)
        let output = try await Task.detached { try CLI.run(["load", "--urls", list, "--format", "jsonl"]) }.value
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        let objects = try lines.map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(objects.map { $0["url"] as? String } == [
            "\(server.url.absoluteString)page.html", "not a url", "\(server.url.absoluteString)missing",
            "http://127.0.0.1:9/", "\(server.url.absoluteString)second.html",
        ])
        #expect(objects[0]["title"] as? String == Fixtures.pageTitle)
        #expect((objects[1]["error"] as? [String: Any])?["code"] as? String == "invalidArgument")
        #expect(objects[2]["status"] as? Int == 404)
        #expect((objects[3]["error"] as? [String: Any])?["code"] as? String == "blockedURL")
        #expect(objects[4]["title"] as? String == "Second")
        #expect(output.status == 64, "the exit status says a line was bad")
        #expect(output.stderr.split(separator: "\n").filter { $0.hasPrefix("headway: error:") }.count == 3)
        #expect(!output.stderr.contains("\u{1B}["), "no progress bar when stderr is not a terminal")
    }

    @Test func urlsComeFromStandardInputToo() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let url = server.url.absoluteString + "second.html"
        let output = try await Task.detached {
            try CLI.run(["load", "--urls", "-", "--format", "jsonl"], input: "\(url)\n\(url)\n")
        }.value
        #expect(output.status == 0)
        #expect(output.stdout.split(separator: "\n").count == 2)
        #expect(server.requestCount(path: "/second.html") == 2)
    }

    @Test func missingListIsAClearError() throws {
        let output = try CLI.run(["load", "--urls", "/no/such/list.txt"])
        #expect(output.status == 66)
        #expect(output.stderr.contains("URL list not found: /no/such/list.txt"))
        let none = try CLI.run(["load"])
        #expect(none.status == 64)
        #expect(none.stderr.contains("give at least one URL"))
    }

    @Test func jobsLoadSeveralPagesAtOnceAndReportEveryURL() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let urls = (1...6).map { "\(server.url.absoluteString)page.html?i=\($0)" }
            + ["\(server.url.absoluteString)missing"]
        let list = try Fixtures.file("jobs.txt", urls.joined(separator: "\n"))
        let output = try await Task.detached {
            try CLI.run(["load", "--urls", list, "--jobs", "3", "--format", "jsonl"])
        }.value
        #expect(output.status == 6, "the 404 decides the exit status: \(output.stderr)")
        let objects = try output.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(Set(objects.compactMap { $0["url"] as? String }) == Set(urls))
        #expect(server.requestCount(path: "/page.html") == 6)
        let refused = try CLI.run(["load", "--jobs", "2", "http://127.0.0.1:1/"])
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("--jobs needs --urls"))
    }
}
