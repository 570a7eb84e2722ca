import Foundation
import HeadwayTestSupport
import Testing

/// Shards of one URL list against nginx, a server Headway did not write: its log shows each
/// entry requested exactly once across the shards, and `headway merge` puts them back together.
@Suite("Shards against nginx", .serialized)
struct ShardNginxTests {
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
            #expect(
                urls == stride(from: index, to: 7, by: count).map {
                    nginx.url.appendingPathComponent("p\($0).html").absoluteString
                }
            )
        }
        let served = nginx.waitForRequests(count: 7).map(\.path).filter { $0.hasSuffix(".html") }
        #expect(served.sorted() == (0..<7).map { "/p\($0).html" }.sorted())

        let merged = try CLI.run(["merge"] + outputs)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(CLI.schemaProblems(merged.stdout, jsonl: false).isEmpty)
        let loads = try #require(try CLI.json(merged)["loads"] as? [[String: Any]])
        #expect(loads.compactMap { $0["title"] as? String }.sorted() == (0..<7).map { "page \($0)" }.sorted())
    }
}
