import Foundation

/// The proportional set size (PSS) of `pid` and every process below it, in KiB, from
/// `/proc/PID/smaps_rollup`: shared libraries are counted once across the tree, not once a process.
public func treeProportionalKiB(_ pid: Int32) -> Int {
    ([pid] + descendants(of: pid).keys).reduce(0) { total, process in
        guard let rollup = try? String(contentsOfFile: "/proc/\(process)/smaps_rollup", encoding: .utf8),
              let line = rollup.split(separator: "\n").first(where: { $0.hasPrefix("Pss:") }),
              let kib = Int(line.split(separator: " ").dropFirst().first ?? "") else { return total }
        return total + kib
    }
}

/// A page for soak runs: about 300 KB of DOM and a script that keeps 2 MB in its document, so that
/// a document kept after it is left shows in a few hundred loads (as the bench's pages would); it
/// declares an icon, as real sites do (Headway's timing script looks for icons after each load).
public let soakPage = """
    <!doctype html><html><head><meta charset="utf-8"><title>Soak</title><link rel="icon" href="/pixel.svg"></head><body>
    <h1>Soak</h1><div id="text">\(String(repeating: "<p>Words of an article, in a paragraph.</p>", count: 7000))</div>
    <script>window.kept = new Float64Array(262144).fill(Math.random());</script></body></html>
    """

/// What a long run keeps, counted by loads: PSS samples of a process tree, taken as loads
/// complete, and the growth of their floor from early in the run to its end.
public struct SoakSamples: Sendable, CustomStringConvertible {
    public private(set) var samples: [(loads: Int, kib: Int)] = []
    public let total: Int
    private let every: Int

    /// A run of `total` loads, sampled every `total / 25` loads.
    public init(total: Int) {
        self.total = total
        every = max(1, total / 25)
    }

    /// Whether a sample is due after `loads` loads: every 4% of the run, the last one a load before
    /// the end (after the last, a process may already be closing, which would hide what it kept).
    public func isDue(_ loads: Int) -> Bool { (loads % every == 0 && loads < total) || loads == total - 1 }

    /// Adds a reading of `kib` after `loads` loads.
    public mutating func add(_ loads: Int, kib: Int) { samples.append((loads, kib)) }

    /// Samples `pid`'s tree, on a thread of its own, when a sample is due after `loads` loads.
    public mutating func loadDone(_ loads: Int, pid: Int32) async {
        guard isDue(loads) else { return }
        add(loads, kib: await onOwnThread { treeProportionalKiB(pid) })
    }

    /// The lowest PSS between 10% and 30% of the run, the lowest in its last 20%, and the ratio
    /// between them less one. Floors, not single readings: a tree's PSS swings by tens of MB as
    /// WebKit's caches fill and the collector runs (seen: 450 to 550 MB and back within a run),
    /// while what every load keeps raises the floor. A reading of 0 (the process had already
    /// exited: its last lines can come as it closes) is left out.
    public var growth: (early: Int, end: Int, ratio: Double) {
        let samples = samples.filter { $0.kib > 0 }
        guard let early = samples.filter({ $0.loads >= total / 10 && $0.loads <= total * 3 / 10 }).map(\.kib).min(),
              let end = samples.filter({ $0.loads >= total * 8 / 10 }).map(\.kib).min() else {
            return (0, 0, .infinity)
        }
        return (early, end, Double(end) / Double(early) - 1)
    }

    public var description: String {
        let (early, end, ratio) = growth
        return "tree PSS floor \(early / 1024) MiB at 10-30% of \(total) loads, \(end / 1024) MiB in the last 20% "
            + "(\(String(format: "%+.1f", ratio * 100))%); samples (loads: MiB) "
            + samples.map { "\($0.loads): \($0.kib / 1024)" }.joined(separator: ", ")
    }
}
