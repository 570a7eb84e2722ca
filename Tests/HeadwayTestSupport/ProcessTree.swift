import Foundation

/// Pids of the live (not zombie) processes descended from `pid`: WebKit's processes, Xvfb.
public func descendants(of pid: Int32) -> [Int32] {
    var parents: [Int32: Int32] = [:]
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    for entry in entries {
        guard let child = Int32(entry),
              let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { continue }
        let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
        guard fields.count > 1, fields[0] != "Z", let parent = Int32(fields[1]) else { continue }
        parents[child] = parent
    }
    var found: [Int32] = []
    var frontier = [pid]
    while let next = frontier.popLast() {
        let children = parents.filter { $0.value == next }.map(\.key)
        found += children
        frontier += children
    }
    return found
}

/// Whether `pid` is still running (a zombie counts as gone).
public func isAlive(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let close = stat.lastIndex(of: ")") else { return false }
    return stat[stat.index(close, offsetBy: 2)] != "Z"
}

/// How many file descriptors `pid` has open.
public func openDescriptorCount(_ pid: Int32) -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd"))?.count ?? 0
}

/// Runs blocking work (a pipe read, waitUntilExit) on a thread of its own, so it never takes one
/// of the few threads Swift's concurrency pool has.
public func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: work()) }.start()
    }
}
