import Foundation

// A one-line progress display on stderr for runs of more than one load, shown only when
// stderr is a terminal. With a total (URLs given as arguments) it shows an ETA.
final class Progress: @unchecked Sendable {
    private let total: Int?
    private let enabled: Bool
    private var done = 0
    private let start = ContinuousClock.now

    init(total: Int?, enabled: Bool) {
        self.total = total
        self.enabled = enabled && (total ?? 2) > 1
    }

    func step(_ url: URL?) {
        done += 1
        guard enabled else { return }
        let elapsed = start.duration(to: .now) / .seconds(1)
        let rate = done > 1 ? Double(done - 1) / max(elapsed, 0.001) : 0
        let count: String
        if let total {
            let eta = rate > 0 ? String(format: " ETA %.0fs", Double(total - done + 1) / rate) : ""
            count = String(format: "[%d/%d] %.1f/s%@", done, total, rate, eta)
        } else {
            count = String(format: "[%d] %.1f/s", done, rate)
        }
        StandardStreams.writeError("\r\u{1B}[K\(count) \(TerminalText.oneLine(url?.absoluteString ?? ""))")
    }

    func finish() {
        guard enabled else { return }
        StandardStreams.writeError("\r\u{1B}[K")
    }
}
