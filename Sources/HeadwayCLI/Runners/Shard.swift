import ArgumentParser
import Headway

// `--shard I/N`: this process takes every N-th entry of the URL list, starting at entry I
// (0-based), so N processes given the same list and I = 0…N-1 load each entry exactly once.
// Entries are the list's lines but blank ones and `#` comments, as `URLList.item` reads them;
// a bad line is an entry (its error is reported by the shard that takes it).
struct Shard: Sendable, Equatable {
    // Which share this is, 0 to `count` - 1.
    let index: Int
    // How many shares the list is split into.
    let count: Int

    // The most shares a list can be split into.
    static let most = 100_000

    init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    // Parses "I/N"; throws `.invalidArgument` with what is wrong.
    init(parsing text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Self.number(parts[0]), let count = Self.number(parts[1]) else {
            throw HeadwayError(.invalidArgument, "--shard must be I/N with whole numbers, 0 <= I < N (e.g. 0/4), not "
                + "\(text.debugDescription)")
        }
        guard (1...Self.most).contains(count) else {
            throw HeadwayError(.invalidArgument, "--shard N must be 1 to \(Self.most), not \(parts[1])")
        }
        guard (0..<count).contains(index) else {
            throw HeadwayError(.invalidArgument, "--shard I must be 0 to \(count - 1) for N = \(count) (I counts from "
                + "0), not \(parts[0])")
        }
        self.init(index: index, count: count)
    }

    // Whether this shard takes the list's entry number `entry` (0-based).
    func takes(entry: Int) -> Bool { entry % count == index }

    // A run of digits, with a leading minus (so that -1/3 is out of range, not malformed);
    // `Int` alone would also take "+1". Too many digits count as out of range.
    private static func number(_ text: Substring) -> Int? {
        let digits = text.hasPrefix("-") ? text.dropFirst() : text
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text) ?? (text.hasPrefix("-") ? Int.min : Int.max)
    }

    // The `--shard` option of `load`, checked in its `validate()`.
    struct Options: ParsableArguments {
        @Option(parsing: .unconditional, help: ArgumentHelp(
            "With --urls, take every N-th entry of the list, starting at entry I. I counts from 0: 0 <= I < N <= " +
            "\(Shard.most). Entries are the list's lines but blank ones and # comments (a bad line is one), so N " +
            "processes given the same list and I = 0 to N-1 load each entry exactly once. Works with --jobs, " +
            "--repeat, --prefetch and every --format; combine the outputs with `headway merge`.",
            valueName: "I/N"))
        var shard: String?

        // The shard, or nil without --shard; a usage error for a bad value, or for --shard
        // without a list or with URLs given as arguments.
        func parsed(list: String?, arguments: [String]) throws -> Shard? {
            guard let shard else { return nil }
            let parsed = try Shard(parsing: shard)
            guard list != nil, arguments.isEmpty else {
                throw HeadwayError(.invalidArgument, "--shard needs --urls: it splits a list, and URLs given as "
                    + "arguments cannot be sharded")
            }
            return parsed
        }
    }
}
