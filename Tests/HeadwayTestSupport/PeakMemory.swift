import Foundation

/// Samples, on a thread of its own every 50 ms, the resident memory of the web processes below
/// this process, and keeps the largest figure seen for one of them.
public final class PeakWebProcessMemory: @unchecked Sendable {
    private let lock = NSLock()
    private var peak = 0
    private var stopped = false

    /// Starts sampling at once.
    public init() {
        Thread { [self] in
            while !lock.withLock({ stopped }) {
                let largest = descendants(of: getpid()).filter { $0.value.hasPrefix("WebKitWebProces") }
                    .keys.map(residentBytes).max() ?? 0
                lock.withLock { peak = max(peak, largest) }
                usleep(50_000)
            }
        }.start()
    }

    /// Stops sampling and returns the largest resident size seen, in bytes.
    public func stop() -> Int {
        lock.withLock {
            stopped = true
            return peak
        }
    }
}

/// The resident memory of `pid` in bytes, 0 when it cannot be read.
public func residentBytes(of pid: Int32) -> Int {
    guard let statm = try? String(contentsOfFile: "/proc/\(pid)/statm", encoding: .utf8) else { return 0 }
    let fields = statm.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}
