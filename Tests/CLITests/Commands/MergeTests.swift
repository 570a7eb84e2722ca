import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// `headway merge` reads `headway load` outputs (jsonl and json, files and stdin) and prints one
/// document: the loads as they were printed, and the summary `--repeat` computes, recomputed
/// over all of them by the library's `TimingSummary`.
@Suite("headway merge", .serialized)
@EngineActor
struct MergeTests {
    static func run(_ arguments: [String], input: String? = nil) async throws -> CLI.Output {
        try await Task.detached { try CLI.run(arguments, environment: ["DISPLAY": nil], input: input) }.value
    }

    /// The "summary" entries of a document or of a jsonl run's last line.
    static func summaries(_ output: CLI.Output, jsonl: Bool) throws -> [[String: Any]] {
        let text = jsonl ? String(output.stdout.split(separator: "\n").last ?? "") : output.stdout
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        return try #require(object["summary"] as? [[String: Any]])
    }

    /// The same URL, run count and metrics, each figure within 0.002 ms: the printed figures
    /// have three decimals, and a median of two is their mean.
    static func same(_ a: [String: Any], _ b: [String: Any]) -> Bool {
        guard a["url"] as? String == b["url"] as? String, a["runs"] as? Int == b["runs"] as? Int,
              let ma = a["metrics"] as? [String: [String: Any]], let mb = b["metrics"] as? [String: [String: Any]],
              Set(ma.keys) == Set(mb.keys) else { return false }
        func figure(_ value: Any?) -> Double { (value as? NSNumber)?.doubleValue ?? (value as? Double) ?? .nan }
        return ma.allSatisfy { name, figures in
            ["min", "median", "p95", "max"].allSatisfy { abs(figure(figures[$0]) - figure(mb[name]?[$0])) <= 0.002 }
        }
    }

    @Test func theSummaryIsRecomputedOverEveryInput() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let page = server.url.appendingPathComponent("page.html").absoluteString
        let second = server.url.appendingPathComponent("second.html").absoluteString
        let list = try Fixtures.file("merge-list.txt", "\(page)\n\(second)\n")
        // Two shards of a --repeat run, one jsonl and one json: each URL in one of them.
        let first = try await Self.run(["load", "--urls", list, "--shard", "0/2", "--repeat", "3", "--format", "jsonl"])
        let other = try await Self.run(["load", "--urls", list, "--shard", "1/2", "--repeat", "3"])
        #expect(first.status == 0 && other.status == 0, "\(first.stderr) \(other.stderr)")
        let jsonl = try Fixtures.file("merge-0.jsonl", first.stdout)
        let json = try Fixtures.file("merge-1.json", other.stdout)

        let merged = try await Self.run(["merge", jsonl, json])
        #expect(merged.status == 0, "\(merged.stderr)")
        let loads = try CLI.loads(merged, jsonl: false)
        #expect(loads.map { $0["url"] as? String } == [page, page, page, second, second, second])
        #expect(loads.map { $0["run"] as? Int } == [1, 2, 3, 1, 2, 3])
        // Each URL was in one shard: its summary is that shard's own (medians of three are figures).
        let expected = try Self.summaries(first, jsonl: true) + Self.summaries(other, jsonl: false)
        let summary = try Self.summaries(merged, jsonl: false)
        #expect(summary.count == 2)
        #expect(zip(summary, expected).allSatisfy(Self.same))
        #expect(merged.stdout.contains(#""summary":[{"url":"\#(page)","runs":3,"metrics":{"started":{"min":"#))

        // stdin reads the same, and a merged document merges to itself.
        let fromStdin = try await Self.run(["merge", "-", json], input: first.stdout)
        #expect(fromStdin.stdout == merged.stdout)
        let again = try await Self.run(["merge", try Fixtures.file("merged.json", merged.stdout)])
        #expect(again.stdout == merged.stdout)

        // One more load of the page, and a list whose blocked URL fails twice and whose bad
        // line comes twice: the page's summary is over its four loads, as the library's
        // TimingSummary gives it; the failed URL's has no runs; the bad line has none.
        let once = try await Self.run(["load", page])
        let failing = try await Self.run([
            "load", "--urls",
            try Fixtures.file("failing.txt", "http://127.0.0.1:9/\nnot a url\n" + "http://127.0.0.1:9/\nnot a url\n"),
            "--format", "jsonl",
        ])
        #expect(once.status == 0 && failing.status == 64)
        let all = try await Self.run([
            "merge", jsonl, try Fixtures.file("once.json", once.stdout),
            try Fixtures.file("failing.jsonl", failing.stdout),
        ])
        #expect(all.status == 0, "\(all.stderr)")
        let results = try first.stdout.split(separator: "\n").dropLast().map {
            try JSONDecoder().decode(LoadResult.self, from: Data($0.utf8))
        } + [
            try JSONDecoder().decode(
                LoadResult.self,
                from: JSONSerialization.data(withJSONObject: try #require(CLI.loads(once, jsonl: false).first))
            ),
        ]
        let library = TimingSummary(url: try #require(URL(string: page)), results: results)
        let own: [String: Any] = [
            "url": page, "runs": library.runs,
            "metrics": Dictionary(uniqueKeysWithValues: library.metrics.map {
                (
                    $0.name,
                    ["min": $0.summary.min, "median": $0.summary.median, "p95": $0.summary.p95, "max": $0.summary.max]
                )
            }),
        ]
        let summaries = try Self.summaries(all, jsonl: false)
        #expect(summaries.count == 2)
        #expect(summaries.first.map { Self.same($0, own) } == true, "\(summaries)")
        #expect(summaries.last?["url"] as? String == "http://127.0.0.1:9/")
        #expect(summaries.last?["runs"] as? Int == 0)
        #expect((summaries.last?["metrics"] as? [String: Any])?.isEmpty == true)
        #expect(try CLI.loads(all, jsonl: false).count == 3 + 1 + 4)
    }

    struct Bad: Sendable, CustomTestStringConvertible {
        var name: String
        var files: [(name: String, text: String)]
        var arguments: [String] = []
        var status: Int32 = 66
        var message: String
        var testDescription: String { name }
    }

    /// A load that failed, as `headway load` prints it.
    nonisolated static let failedLoad =
        #"{"url":"http://127.0.0.1:9/","finalURL":null,"redirects":[],"status":null,"title":null,"timing":null,"#
        + #""resources":null,"scripts":[],"console":[],"consoleTotal":0,"consoleTruncated":false,"errors":[],"#
        + #""errorsTotal":0,"errorsTruncated":false,"dialogs":[],"#
        + #""error":{"code":"blockedURL","message":"blocked port"}}"#

    nonisolated static let bad: [Bad] = [
        Bad(name: "a missing file", files: [], arguments: ["/no/such.jsonl"],
            message: "file to merge not found: /no/such.jsonl"),
        Bad(name: "a directory", files: [], arguments: ["/tmp"], message: "file to merge is a directory: /tmp"),
        Bad(name: "a line that is not JSON", files: [("garbage.jsonl", failedLoad + "\nnot json\n")],
            message: "garbage.jsonl line 2 is not JSON (unexpected 'n' at column 1); "
                + "merge reads what headway load --format json or jsonl printed"),
        Bad(name: "JSON of another shape", files: [("other.jsonl", "\n" + #"{"name":"x"}"# + "\n")],
            message: #"other.jsonl line 2 is not what headway load prints (a document with "loads", a load, "#
                + #"or a last line with "summary" or "prefetch")"#),
        Bad(name: "a load without timing",
            files: [("untimed.jsonl", failedLoad + "\n" + #"{"url":"http://a.test/"}"# + "\n")],
            message: #"untimed.jsonl line 2 is not a load from headway load (no "timing")"#),
        Bad(name: "a document with a broken load",
            files: [("broken.json", #"{"loads":["# + failedLoad + #",{"url":"http://a.test/","timing":{}}]}"#)],
            message: #"broken.json line 1, loads[1] is not a load from headway load (no "finalURL")"#),
        Bad(name: "a document with other members", files: [("members.json", #"{"loads":[],"pages":[]}"#)],
            message: "members.json line 1 is not what headway load prints"),
        Bad(name: "text output", files: [("text.txt", "Fixture Page  200  12.0 ms\n")],
            message: "text.txt line 1 is not JSON"),
        Bad(name: "stdin twice", files: [], arguments: ["-", "-"], status: 64,
            message: "- (stdin) can be merged only once"),
        Bad(name: "no file", files: [], status: 64, message: "Missing expected argument '<files> ...'"),
    ]

    @Test(arguments: bad)
    func badInputIsOneLineNamingFileAndLine(_ item: Bad) async throws {
        let paths = try item.files.map { try Fixtures.file($0.name, $0.text) }
        let output = try await Self.run(["merge"] + paths + item.arguments)
        #expect(output.status == item.status)
        #expect(output.stdout.isEmpty)
        let lines = output.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 1 && output.stderr.hasPrefix("headway: error: "), "\(output.stderr)")
        #expect(output.stderr.contains(item.message), "\(output.stderr)")
    }

    @Test func notUTF8IsAnInputError() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("headway-merge-\(getpid()).jsonl")
        try Data([0xFF, 0xFE, 0x7B]).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        let output = try await Self.run(["merge", path.path])
        #expect(output.status == 66)
        #expect(output.stderr == "headway: error: file to merge is not UTF-8 text: \(path.path)\n")
    }
}
