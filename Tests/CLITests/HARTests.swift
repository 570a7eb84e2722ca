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
        let har = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        #expect(JSONSchema.har.problems(har).isEmpty, "\(JSONSchema.har.problems(har).prefix(5))")
        let pages = (har["log"] as? [String: Any])?["pages"] as? [[String: Any]]
        #expect(pages?.count == 1)
        #expect(pages?.first?["title"] as? String == "options")
        let logged = nginx.waitForRequests(count: 4).filter { $0.path != "/favicon.ico" }
        let entries = Self.entries(har).filter { ($0["request"] as? [String: Any])?["url"] as? String != nginx.url.appendingPathComponent("favicon.ico").absoluteString }
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
        let har = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        #expect(JSONSchema.har.problems(har).isEmpty, "\(JSONSchema.har.problems(har).prefix(5))")
        let next = try #require(Self.entries(har).first { ($0["request"] as? [String: Any])?["url"] as? String == nginx.url.appendingPathComponent("next.html").absoluteString })
        #expect(next["pageref"] as? String == "page_2")
        #expect(next["_fromCache"] as? String == "prefetch")
        let summary = try CLI.run(["har-summary", path])
        #expect(summary.stdout.contains("200P"))
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
        #expect(unwritable.stderr.contains("could not write the HAR file /no/such/dir/x.har"))
    }
}
