import Foundation
import HeadwayTestSupport
import Testing

/// `--shard I/N` splits a URL list across processes, each entry loaded exactly once (checked by
/// what nginx logged), and `headway merge` puts the outputs back together.
@Suite("Shards and merge", .serialized)
struct ShardAndMergeTests {
    static func site(pages: Int) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("headway-shards-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for index in 0..<pages {
            try "<!doctype html><title>page \(index)</title>".write(to: root.appendingPathComponent("p\(index).html"),
                                                                 atomically: true, encoding: .utf8)
        }
        return root
    }

    @Test(arguments: [2, 3])
    func shardsCoverTheListExactlyOnceAndMergeBack(count: Int) throws {
        let root = try Self.site(pages: 7)
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try NginxServer(root: root)
        defer { nginx.stop() }
        // Comments and blank lines are no entries: they do not shift the split.
        var lines = ["# the list", ""]
        lines += (0..<7).map { nginx.url.appendingPathComponent("p\($0).html").absoluteString }
        let list = try Fixtures.file("list-\(count).txt", lines.joined(separator: "\n") + "\n")
        var outputs: [String] = []
        for index in 0..<count {
            let output = try CLI.run(["load", "--urls", list, "--shard", "\(index)/\(count)", "--format", "jsonl"])
            #expect(output.status == 0, "\(output.stderr)")
            let path = try Fixtures.file("shard-\(count)-\(index).jsonl", output.stdout)
            outputs.append(path)
            let urls = output.stdout.split(separator: "\n").compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["url"] as? String
            }
            #expect(urls == stride(from: index, to: 7, by: count).map { nginx.url.appendingPathComponent("p\($0).html").absoluteString })
        }
        let served = nginx.waitForRequests(count: 7).map(\.path).filter { $0.hasSuffix(".html") }
        #expect(served.sorted() == (0..<7).map { "/p\($0).html" }.sorted())

        let merged = try CLI.run(["merge"] + outputs)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(CLI.schemaProblems(merged.stdout, jsonl: false).isEmpty)
        let loads = try #require(try CLI.json(merged)["loads"] as? [[String: Any]])
        #expect(loads.compactMap { $0["title"] as? String }.sorted() == (0..<7).map { "page \($0)" }.sorted())
    }

    @Test func mergeSummarisesURLsLoadedMoreThanOnce() throws {
        let root = try Self.site(pages: 1)
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try NginxServer(root: root)
        defer { nginx.stop() }
        let url = nginx.url.appendingPathComponent("p0.html").absoluteString
        let list = try Fixtures.file("one.txt", url + "\n")
        let first = try CLI.run(["load", "--urls", list, "--repeat", "2", "--format", "jsonl"])
        let second = try CLI.run(["load", url])
        #expect(first.status == 0 && second.status == 0)
        let merged = try CLI.run(["merge", try Fixtures.file("first.jsonl", first.stdout), try Fixtures.file("second.json", second.stdout)])
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(CLI.schemaProblems(merged.stdout, jsonl: false).isEmpty)
        let document = try CLI.json(merged)
        #expect((document["loads"] as? [[String: Any]])?.count == 3)
        let summary = try #require((document["summary"] as? [[String: Any]])?.first)
        #expect(summary["url"] as? String == url)
        #expect(summary["runs"] as? Int == 3)
    }

    @Test(arguments: [("x", "--shard must be I/N"), ("2/2", "--shard I must be 0 to 1"), ("0/0", "--shard N must be 1 to"),
                      ("-1/3", "--shard I must be 0 to 2"), ("1", "--shard must be I/N")])
    func badShardsAreRefused(shard: String, message: String) throws {
        let output = try CLI.run(["load", "--urls", try Fixtures.file("bad-shard.txt", "http://127.0.0.1:9/\n"), "--shard", shard])
        #expect(output.status == 64)
        #expect(output.stderr.contains(message), "\(output.stderr)")
    }

    @Test func shardingNeedsAListAndMergeNeedsLoadOutput() throws {
        let arguments = try CLI.run(["load", "http://127.0.0.1:9/", "--shard", "0/2"])
        #expect(arguments.status == 64)
        #expect(arguments.stderr.contains("--shard splits a --urls list"))
        let missing = try CLI.run(["merge", "/no/such.jsonl"])
        #expect(missing.status == 66)
        #expect(missing.stderr.contains("file to merge not found or not readable: /no/such.jsonl"))
        let garbage = try CLI.run(["merge", try Fixtures.file("garbage.jsonl", "{\"url\":\"http://a/\",\"timing\":null}\nnot json\n")])
        #expect(garbage.status == 66)
        #expect(garbage.stderr.contains("garbage.jsonl line 2 is not JSON from headway load"))
        let other = try CLI.run(["merge", try Fixtures.file("other.jsonl", "{\"name\":\"x\"}\n")])
        #expect(other.status == 66)
        #expect(other.stderr.contains("line 1 is not a load object"))
    }
}
