import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// `--shard I/N` splits a `--urls` list across processes: each entry (a line but blank ones and
/// comments; a bad line is one) is loaded by exactly one shard, checked by the server's request
/// log as well as by the outputs, and `headway merge` gives the loads back as they were printed.
@Suite("headway load --shard", .serialized)
@EngineActor
struct ShardTests {
    struct Plan: Sendable, CustomTestStringConvertible {
        var count: Int
        var format: String
        var jobs: Int
        var testDescription: String { "\(count) shards, --format \(format), --jobs \(jobs)" }
    }

    /// The list's entries: 8 pages and, as entry 3, a bad line.
    nonisolated static let entries = ["p0", "p1", "p2", "not a url", "p3", "p4", "p5", "p6", "p7"]

    static func server() throws -> HTTPServer {
        let server = try Fixtures.server()
        for entry in entries where entry.hasPrefix("p") {
            server.route("/shard/\(entry).html", .html("<!doctype html><title>page \(entry)</title>"))
        }
        return server
    }

    /// The list as a person writes it: a comment, blank lines, an indented comment.
    static func list(_ server: HTTPServer) throws -> String {
        var lines = ["# pages to check", ""]
        for (index, entry) in entries.enumerated() {
            lines.append(entry.hasPrefix("p") ? url(server, entry) : entry)
            if index == 1 { lines += ["", "   # an indented comment", "   "] }
        }
        return try Fixtures.file("shard-list.txt", lines.joined(separator: "\n") + "\n")
    }

    static func url(_ server: HTTPServer, _ entry: String) -> String {
        server.url.appendingPathComponent("shard/\(entry).html").absoluteString
    }

    static func run(_ arguments: [String]) async throws -> CLI.Output {
        try await Task.detached { try CLI.run(arguments, environment: ["DISPLAY": nil]) }.value
    }

    /// The loads' text as printed, comma-separated: the lines of jsonl, or what is between the
    /// brackets of a document's "loads" (the document has nothing else without --repeat).
    static func loadsText(_ stdout: String, format: String) throws -> String {
        if format == "jsonl" { return stdout.split(separator: "\n").joined(separator: ",") }
        let document = stdout.trimmingCharacters(in: .newlines)
        try #require(document.hasPrefix(#"{"loads":["#) && document.hasSuffix("]}"), "\(document)")
        return String(document.dropFirst(#"{"loads":["#.count).dropLast(2))
    }

    @Test(arguments: [Plan(count: 2, format: "jsonl", jobs: 1), Plan(count: 3, format: "json", jobs: 1),
                      Plan(count: 3, format: "jsonl", jobs: 2)])
    func shardsCoverTheListExactlyOnce(_ plan: Plan) async throws {
        let server = try Self.server()
        defer { server.stop() }
        let list = try Self.list(server)
        var files: [String] = []
        var printed: [String] = []  // each shard's loads, as printed
        var loadedURLs: [String] = []
        for index in 0..<plan.count {
            let before = server.requests.count
            let output = try await Self.run(["load", "--urls", list, "--shard", "\(index)/\(plan.count)",
                                             "--format", plan.format, "--jobs", "\(plan.jobs)"])
            // Entry e belongs to shard e % N; the bad line is entry 3.
            let mine = Self.entries.indices.filter { $0 % plan.count == index }.map { Self.entries[$0] }
            #expect(output.status == (mine.contains("not a url") ? 64 : 0), "\(output.stderr)")
            let served = server.requests[before...].map(\.path).filter { $0.hasPrefix("/shard/") }
            #expect(served.sorted() == mine.filter { $0.hasPrefix("p") }.map { "/shard/\($0).html" }.sorted(),
                    "shard \(index) asked the server for its own entries, once each")
            let expected = mine.map { $0.hasPrefix("p") ? Self.url(server, $0) : $0 }
            let urls = try CLI.loads(output, jsonl: plan.format == "jsonl").map { $0["url"] as? String ?? "" }
            // With --jobs, loads come in completion order.
            #expect(plan.jobs == 1 ? urls == expected : urls.sorted() == expected.sorted())
            loadedURLs += urls
            files.append(try Fixtures.file("shard-\(plan.count)-\(index).\(plan.format)", output.stdout))
            printed.append(try Self.loadsText(output.stdout, format: plan.format))
        }
        let all = Self.entries.map { $0.hasPrefix("p") ? Self.url(server, $0) : $0 }
        #expect(loadedURLs.sorted() == all.sorted(), "every entry exactly once across the shards")
        let requested = server.requests.map(\.path).filter { $0.hasPrefix("/shard/") }
        #expect(requested.sorted() == all.filter { !$0.contains(" ") }.map { URL(string: $0)!.path }.sorted())

        // merge gives the loads as printed, in the order of the files and their lines; no URL
        // was loaded twice, so the summary is empty.
        let merged = try await Self.run(["merge"] + files)
        #expect(merged.status == 0, "\(merged.stderr)")
        let loads = printed.filter { !$0.isEmpty }.joined(separator: ",")
        #expect(merged.stdout == #"{"loads":["# + loads + #"],"summary":[]}"# + "\n")
        #expect(try CLI.loads(merged, jsonl: false).count == Self.entries.count)
    }

    @Test func aShardWithNoEntriesLoadsNothing() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let list = try Fixtures.file(
            "two.txt",
            Self.url(server, "p0") + "\n# not an entry\n" + Self.url(server, "p1") + "\n"
        )
        let output = try await Self.run(["load", "--urls", list, "--shard", "2/3"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == #"{"loads":[]}"# + "\n")
        #expect(server.requests.filter { $0.path.hasPrefix("/shard/") }.isEmpty)
    }

    /// A read error ends the list; it is no entry, so every shard reports it. (Reading
    /// /proc/self/mem from its start fails with EIO.)
    @Test(arguments: ["0/2", "1/2"])
    func aReadErrorOfTheListReachesEveryShard(shard: String) async throws {
        let output = try await Self.run(["load", "--urls", "/proc/self/mem", "--shard", shard, "--format", "jsonl"])
        #expect(output.status == 66, "\(output.stderr)")
        #expect(
            output.stderr.contains("headway: error: could not read the URL list: Input/output error"),
            "\(output.stderr)"
        )
        let loads = try CLI.loads(output, jsonl: true)
        #expect(loads.count == 1)
        #expect((loads.first?["error"] as? [String: Any])?["code"] as? String == "fileUnreadable")
    }

    nonisolated static let badShards: [(String, String)] = [
        ("3/3", "--shard I must be 0 to 2 for N = 3 (I counts from 0), not 3"),
        ("x", #"--shard must be I/N with whole numbers, 0 <= I < N (e.g. 0/4), not "x""#),
        ("0/0", "--shard N must be 1 to 100000, not 0"),
        ("-1/3", "--shard I must be 0 to 2 for N = 3 (I counts from 0), not -1"),
        ("1", #"--shard must be I/N with whole numbers, 0 <= I < N (e.g. 0/4), not "1""#),
        ("1/", #"--shard must be I/N with whole numbers, 0 <= I < N (e.g. 0/4), not "1/""#),
        ("+1/2", #"--shard must be I/N with whole numbers, 0 <= I < N (e.g. 0/4), not "+1/2""#),
        ("0/100001", "--shard N must be 1 to 100000, not 100001"),
        ("0/99999999999999999999", "--shard N must be 1 to 100000, not 99999999999999999999"),
    ]

    @Test(arguments: badShards)
    func aBadShardIsAUsageError(shard: String, message: String) async throws {
        let list = try Fixtures.file("bad-shard.txt", "http://127.0.0.1:9/\n")
        let output = try await Self.run(["load", "--urls", list, "--shard", shard])
        #expect(output.status == 64)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr == "headway: error: \(message)\n")
    }

    @Test(arguments: [["http://127.0.0.1:9/"], ["--urls", "LIST", "http://127.0.0.1:9/"], []])
    func onlyAListCanBeSharded(extra: [String]) async throws {
        let list = try Fixtures.file("one-line.txt", "http://127.0.0.1:9/\n")
        let output = try await Self.run(["load", "--shard", "0/2"] + extra.map { $0 == "LIST" ? list : $0 })
        #expect(output.status == 64)
        #expect(
            output.stderr == "headway: error: --shard needs --urls: it splits a list, "
                + "and URLs given as arguments cannot be sharded\n"
        )
    }
}
