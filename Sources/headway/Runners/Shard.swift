import Headway

/// `--shard I/N`: this process takes every N-th entry of the URL list, starting at entry I
/// (0-based), so N processes given the same list and I = 0…N-1 load each entry exactly once.
struct Shard: Sendable, Equatable {
    /// Which share this is, 0 to `count` - 1.
    let index: Int
    /// How many shares the list is split into.
    let count: Int

    /// The most shares a list can be split into.
    static let most = 100_000

    init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Parses "I/N"; throws `.invalidArgument` with what is wrong.
    init(parsing text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw HeadwayError(.invalidArgument, "--shard must be I/N, e.g. 0/4, not \(text.debugDescription)")
        }
        guard (1...Self.most).contains(count) else {
            throw HeadwayError(.invalidArgument, "--shard N must be 1 to \(Self.most), not \(count)")
        }
        guard (0..<count).contains(index) else {
            throw HeadwayError(.invalidArgument, "--shard I must be 0 to \(count - 1) for N = \(count) (I counts from 0), not \(index)")
        }
        self.init(index: index, count: count)
    }
}
