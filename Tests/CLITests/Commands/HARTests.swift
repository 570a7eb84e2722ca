import Foundation
import HeadwayTestSupport
import Testing

/// `headway load --har` against nginx: a HAR 1.2 file whose entries are the requests nginx
/// logged, and `headway har-summary` reading it back.
@Suite("HAR output", .serialized)
struct HARTests {
    static func entries(_ har: [String: Any]) -> [[String: Any]] {
        ((har["log"] as? [String: Any])?["entries"] as? [[String: Any]]) ?? []
    }

    @Test func theHAREntriesAreTheRequestsTheServerLogged() throws {
        let root = try OptionsSite.make()
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try NginxServer(root: root)
        defer { nginx.stop() }
        let path = try Fixtures.file("run.har", "")
        let output = try CLI.run(["load", nginx.url.appendingPathComponent("index.html").absoluteString,
                                  "--wait-until", "networkidle", "--har", path])
        #expect(output.status == 0, "\(output.stderr)")
        let har = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        )
        #expect(JSONSchema.har.problems(har).isEmpty, "\(JSONSchema.har.problems(har).prefix(5))")
        let pages = (har["log"] as? [String: Any])?["pages"] as? [[String: Any]]
        #expect(pages?.count == 1)
        #expect(pages?.first?["title"] as? String == "options")
        let logged = nginx.waitForRequests(count: 4).filter { $0.path != "/favicon.ico" }
        let entries = Self.entries(har).filter {
            ($0["request"] as? [String: Any])?["url"] as? String
                != nginx.url.appendingPathComponent("favicon.ico").absoluteString
        }
        let fromHAR = entries.map { entry -> String in
            let request = entry["request"] as? [String: Any]
            let url = URL(string: request?["url"] as? String ?? "")
            let status = (entry["response"] as? [String: Any])?["status"] as? Int ?? 0
            return "\(request?["method"] as? String ?? "") \(url?.path ?? "") \(status)"
        }
        let fromServer = logged.map { "\($0.method) \($0.path) \($0.status)" }
        #expect(fromHAR.sorted() == fromServer.sorted())
        let document = try #require(entries.first)
        let timings = try #require(document["timings"] as? [String: Any])
        #expect((timings["wait"] as? Double ?? -1) >= 0)
        let headers = ((document["response"] as? [String: Any])?["headers"] as? [[String: Any]]) ?? []
        #expect(headers.contains { ($0["name"] as? String)?.lowercased() == "etag" })

        let summary = try CLI.run(["har-summary", path])
        #expect(summary.status == 0)
        #expect(summary.stdout.contains("options (load "))
        #expect(summary.stdout.contains("200"))
        #expect(summary.stdout.contains(nginx.url.appendingPathComponent("style.css").absoluteString))
    }

    @Test func entriesTheBoosterServedAreMarked() throws {
        let root = try OptionsSite.make()
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try NginxServer(root: root)
        defer { nginx.stop() }
        let path = try Fixtures.file("boosted.har", "")
        let output = try CLI.run(["load", "--prefetch", nginx.url.appendingPathComponent("index.html").absoluteString,
                                  nginx.url.appendingPathComponent("next.html").absoluteString, "--har", path])
        #expect(output.status == 0, "\(output.stderr)")
        let har = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        )
        #expect(JSONSchema.har.problems(har).isEmpty, "\(JSONSchema.har.problems(har).prefix(5))")
        let next = try #require(
            Self.entries(har).first {
                ($0["request"] as? [String: Any])?["url"] as? String
                    == nginx.url.appendingPathComponent("next.html").absoluteString
            }
        )
        #expect(next["pageref"] as? String == "page_2")
        #expect(next["_fromCache"] as? String == "prefetch")
        let summary = try CLI.run(["har-summary", path])
        #expect(summary.stdout.contains("200P"))
    }

    @Test func withSeveralJobsEveryLoadIsAPage() throws {
        let root = try OptionsSite.make()
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try NginxServer(root: root)
        defer { nginx.stop() }
        let path = try Fixtures.file("jobs.har", "")
        let list = try Fixtures.file(
            "jobs.txt",
            ["index.html", "next.html"].map { nginx.url.appendingPathComponent($0).absoluteString }
                .joined(separator: "\n")
        )
        let output = try CLI.run(["load", "--jobs", "2", "--urls", list, "--har", path])
        #expect(output.status == 0, "\(output.stderr)")
        let har = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        )
        #expect(JSONSchema.har.problems(har).isEmpty, "\(JSONSchema.har.problems(har).prefix(5))")
        let pages = (har["log"] as? [String: Any])?["pages"] as? [[String: Any]] ?? []
        #expect(Set(pages.compactMap { $0["title"] as? String }) == ["options", "next"])
        let urls = Set(Self.entries(har).compactMap { ($0["request"] as? [String: Any])?["url"] as? String })
        #expect(
            urls.isSuperset(
                of: ["index.html", "style.css", "next.html"].map { nginx.url.appendingPathComponent($0).absoluteString }
            )
        )
    }

    @Test func aPageWithMoreThan250RequestsHasThemAll() throws {
        let root = try OptionsSite.make()
        defer { try? FileManager.default.removeItem(at: root) }
        let tags = (0..<300).map { #"<img src="/dot.gif?i=\#($0)" width=1 height=1>"# }.joined()
        try "<!doctype html><title>many</title>\(tags)".write(
            to: root.appendingPathComponent("many.html"),
            atomically: true,
            encoding: .utf8
        )
        try Data(base64Encoded: "R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7")!
            .write(to: root.appendingPathComponent("dot.gif"))
        let nginx = try NginxServer(root: root)
        defer { nginx.stop() }
        let path = try Fixtures.file("many.har", "")
        let output = try CLI.run(["load", nginx.url.appendingPathComponent("many.html").absoluteString, "--har", path])
        #expect(output.status == 0, "\(output.stderr)")
        let har = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        )
        let images = Self.entries(har).filter {
            (($0["request"] as? [String: Any])?["url"] as? String ?? "").contains("/dot.gif?i=")
        }
        #expect(images.count == 300)
        #expect(nginx.waitForRequests(count: 301).filter { $0.path == "/dot.gif" }.count == 300)
    }

    @Test func hugeFiguresInAHARFileDoNotTrap() throws {
        let har = #"{"log": {"pages": [{"id": "p", "title": "huge", "startedDateTime": "2026-01-01T00:00:00Z", "#
            + #""pageTimings": {"onLoad": 1e300}}], "entries": ["#
            + #"{"pageref": "p", "startedDateTime": "2026-01-01T00:00:00Z", "time": 1e300, "#
            + #""request": {"method": "GET", "url": "http://a/"}, "#
            + #""response": {"status": 200, "content": {"size": 1}}},"#
            + #"{"pageref": "p", "startedDateTime": "9999-01-01T00:00:00Z", "time": -1e300, "#
            + #""request": {"method": "GET", "url": "http://b/"}, "response": {"status": 0}}]}}"#
        let output = try CLI.run(["har-summary", try Fixtures.file("huge.har", har)])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("huge (load 1000000000000000 ms, 2 requests)"))
        #expect(output.stdout.contains("http://b/"))
    }

    @Test func aFileThatIsNoHARIsRefused() throws {
        let missing = try CLI.run(["har-summary", "/no/such.har"])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("HAR file not found or not readable: /no/such.har"))
        let other = try CLI.run(["har-summary", try Fixtures.file("other.json", #"{"loads": []}"#)])
        #expect(other.status == 66)
        #expect(other.stderr.contains("is not a HAR file"))
        let unwritable = try CLI.run(["load", "http://127.0.0.1:9/", "--har", "/no/such/dir/x.har"])
        #expect(unwritable.status == 73)
        #expect(unwritable.stderr.contains("cannot write the HAR file /no/such/dir/x.har"))
    }
}
