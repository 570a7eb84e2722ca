import Foundation

/// The processes below `pid` (its children, their children, …), by pid, with their command
/// names as the kernel keeps them (at most 15 characters: `WebKitWebProces`).
public func descendants(of pid: Int32) -> [Int32: String] {
    var parents: [Int32: (parent: Int32, name: String)] = [:]
    for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
        guard let child = Int32(entry), let stat = processStat(child), stat.state != "Z" else { continue }
        parents[child] = (stat.parent, stat.name)
    }
    var found: [Int32: String] = [:]
    var frontier: Set<Int32> = [pid]
    while !frontier.isEmpty {
        let next = parents.filter { frontier.contains($0.value.parent) && found[$0.key] == nil }
        for (child, info) in next { found[child] = info.name }
        frontier = Set(next.keys)
    }
    return found
}

/// Adds a fresh `descendants` reading to `seen`, the processes sampled so far. A process keeps
/// the name it was seen with last: a child first seen between fork and exec still has the name
/// of the thread that forked it (`headway-engine`), and only later its program's
/// (`WebKitWebProces`). A process that ended keeps the last name it had.
public func merge(_ fresh: [Int32: String], into seen: inout [Int32: String]) {
    seen.merge(fresh) { _, newest in newest }
}

/// Whether `pid` still runs (exists and is not a zombie).
public func isRunning(_ pid: Int32) -> Bool {
    guard let stat = processStat(pid) else { return false }
    return stat.state != "Z"
}

/// Of `pids`, those still running after up to `seconds` of waiting for them to end.
public func stillRunning(_ pids: [Int32], after seconds: Double) async -> [Int32] {
    _ = try? await waitFor("processes \(pids) to end", within: .seconds(seconds), every: .milliseconds(50),
                           { pids.filter(isRunning) }, until: \.isEmpty)
    return pids.filter(isRunning)
}

private func processStat(_ pid: Int32) -> (name: String, state: Character, parent: Int32)? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { return nil }
    let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
    guard fields.count > 1, let state = fields[0].first, let parent = Int32(fields[1]) else { return nil }
    return (String(stat[stat.index(after: open)..<close]), state, parent)
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

/// The threads of `pid` that run under a real-time scheduling policy (SCHED_FIFO or SCHED_RR),
/// by name.
public func realTimeThreads(of pid: Int32) -> [String] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    return tasks.compactMap { tid in
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/stat", encoding: .utf8),
              let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { return nil }
        // Fields from the state on (field 3); the policy is field 41.
        let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
        guard fields.count > 38, let policy = Int(fields[38]), policy == 1 || policy == 2 else { return nil }
        return String(stat[stat.index(after: open)..<close])
    }
}

/// The open file descriptors of `pid`, each with what it refers to (a path, `pipe:[INODE]`,
/// `socket:[INODE]`, …).
public func openDescriptors(of pid: Int32) -> [Int32: String] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
    var found: [Int32: String] = [:]
    for entry in entries {
        let link = "/proc/\(pid)/fd/\(entry)"
        let manager = FileManager.default
        guard let fd = Int32(entry), let target = try? manager.destinationOfSymbolicLink(atPath: link) else { continue }
        found[fd] = target
    }
    return found
}

/// The CPU time `pid` has used so far (user and system), in clock ticks (100 a second here).
public func cpuTicks(of pid: Int32) -> Int? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let close = stat.lastIndex(of: ")") else { return nil }
    let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
    guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
    return user + system
}
