import Foundation
import Headway
@testable import HeadwayCLI
import Testing

/// `--shard I/N`: parsing, limits, and which entries a shard takes.
@Suite("--shard parsing and assignment")
struct ShardParsingTests {
    @Test(arguments: [("0/1", 0, 1), ("0/4", 0, 4), ("3/4", 3, 4), ("99999/100000", 99_999, 100_000),
                      ("007/010", 7, 10)])
    func wellFormed(text: String, index: Int, count: Int) throws {
        #expect(try Shard(parsing: text) == Shard(index: index, count: count))
    }

    @Test func malformed() {
        let formatted = { (text: String) in
            "--shard must be I/N with whole numbers, 0 <= I < N (e.g. 0/4), not \(text.debugDescription)"
        }
        for text in ["", "/", "1", "1/", "/4", "a/b", "1/2/3", "+1/4", "1/+4", " 1/4", "1/4 ", "1.0/4", "1/4\n",
                     "1\r/4", "١/٤", "１/４", "0x1/4", "--1/4", "-/4", "1//4"] {
            #expect(throws: HeadwayError(.invalidArgument, formatted(text)), "\(text.debugDescription)") {
                try Shard(parsing: text)
            }
        }
    }

    @Test func outOfRange() {
        let bad: [(String, String)] = [
            ("0/0", "--shard N must be 1 to 100000, not 0"),
            ("0/100001", "--shard N must be 1 to 100000, not 100001"),
            ("0/-3", "--shard N must be 1 to 100000, not -3"),
            ("0/99999999999999999999999999", "--shard N must be 1 to 100000, not 99999999999999999999999999"),
            ("0/-99999999999999999999999999", "--shard N must be 1 to 100000, not -99999999999999999999999999"),
            ("4/4", "--shard I must be 0 to 3 for N = 4 (I counts from 0), not 4"),
            ("-1/3", "--shard I must be 0 to 2 for N = 3 (I counts from 0), not -1"),
            ("99999999999999999999999999/3", "--shard I must be 0 to 2 for N = 3 (I counts from 0), "
                + "not 99999999999999999999999999"),
            ("-99999999999999999999999999/3", "--shard I must be 0 to 2 for N = 3 (I counts from 0), "
                + "not -99999999999999999999999999"),
            ("1/1", "--shard I must be 0 to 0 for N = 1 (I counts from 0), not 1"),
        ]
        for (text, message) in bad {
            #expect(throws: HeadwayError(.invalidArgument, message)) { try Shard(parsing: text) }
        }
    }

    @Test func theSharesOfAListCoverEachEntryExactlyOnce() {
        for count in [1, 2, 3, 7, 64] {
            let shards = (0..<count).map { Shard(index: $0, count: count) }
            for entry in 0..<500 {
                #expect(shards.filter { $0.takes(entry: entry) }.count == 1)
                #expect(shards[entry % count].takes(entry: entry))
            }
        }
        let last = Shard(index: Shard.most - 1, count: Shard.most)
        #expect(last.takes(entry: Shard.most - 1))
        #expect(last.takes(entry: Int.max - (Int.max % Shard.most) - 1))
        #expect(!last.takes(entry: 0))
    }

    @Test func theOptionNeedsAListAndNoURLArguments() throws {
        #expect(try Shard.Options.parse([]).parsed(list: nil, arguments: ["http://a/"]) == nil)
        let options = try Shard.Options.parse(["--shard", "1/2"])
        #expect(try options.parsed(list: "urls.txt", arguments: []) == Shard(index: 1, count: 2))
        let message = "--shard needs --urls: it splits a list, and URLs given as arguments cannot be sharded"
        #expect(throws: HeadwayError(.invalidArgument, message)) { try options.parsed(list: nil, arguments: []) }
        #expect(throws: HeadwayError(.invalidArgument, message)) {
            try options.parsed(list: "urls.txt", arguments: ["http://a/"])
        }
        // The value's own error comes first.
        #expect(throws: HeadwayError(.invalidArgument, "--shard N must be 1 to 100000, not 0")) {
            try Shard.Options.parse(["--shard", "0/0"]).parsed(list: nil, arguments: [])
        }
        // `parsing: .unconditional` takes a value that starts with a dash.
        #expect(try Shard.Options.parse(["--shard", "-1/2"]).shard == "-1/2")
    }

    @Test @EngineActor func aFeedTakesItsShareOfTheListAndCountsBadLinesAsEntries() async throws {
        let text = "# header\nhttp://a/0\n\nnot a url\nhttp://a/2\n  # note\nhttp://a/3\nhttp://a/4\n"
        let path = try TextFileTests.file("shard-list.txt", Array(text.utf8).withUnsafeBufferPointer { Data($0) })
        var taken: [[String]] = []
        for index in 0..<2 {
            let feed = URLFeed(arguments: [], list: try URLList.open(path: path), shard: Shard(index: index, count: 2))
            var items: [String] = []
            while let item = await feed.next() { items.append(URLListTests.describe(item)) }
            taken.append(items.map { String($0.prefix(18)) })
        }
        #expect(taken[0] == ["url:http://a/0", "url:http://a/2", "url:http://a/4"])
        #expect(taken[1] == ["invalid:not a url|", "url:http://a/3"])
    }
}
