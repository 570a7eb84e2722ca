import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// SIGTERM or SIGINT to `headway load` while its page spins in JavaScript ends every process of
/// headway's tree (its web process, WebKit's network process, its Xvfb) with headway, instead of
/// leaving the web process at full CPU until WebKit's watchdog (issue 20, defect 10).
@Suite("headway load ended by a signal while a page spins", .serialized)
@EngineActor
struct InterruptCommandTests {
    nonisolated enum Spin: String, Sendable { case inThePage, inASnippet }

    @Test(arguments: [(SIGTERM, Spin.inThePage), (SIGINT, Spin.inASnippet), (SIGINT, Spin.inThePage)])
    func nothingOutlivesHeadway(signal: Int32, spin: Spin) async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        // A synchronous request, so that the spin has started once the server answered it.
        let spinning = "var x = new XMLHttpRequest(); x.open('GET', '/spinning', false); x.send(); while (true) {}"
        server.route("/spinning", .html("spinning"))
        server.route("/spin.html", .html("<!doctype html><title>Spin</title><script>\(spinning)</script>"))
        let answered = Flag()
        server.onRequest = { if $0.path == "/spinning" { answered.set() } }
        let page = server.url.appendingPathComponent(spin == .inThePage ? "spin.html" : "page.html")
        var arguments = ["load", page.absoluteString, "--timeout", "120", "--script-timeout", "120"]
        if spin == .inASnippet { arguments += ["--script", try Fixtures.file("spin.js", spinning)] }
        let process = try CLI.start(arguments)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let tree = await Self.spinning(process, answered: answered)
        #expect(tree.values.contains { $0.hasPrefix("WebKitWebProc") },
                "no web process spins: answered \(answered.isSet), running \(process.isRunning), \(tree)")
        guard !tree.isEmpty else { return }
        kill(process.processIdentifier, signal)
        // Read from /proc: Foundation's Process notices headway's end only once every process
        // that inherited its watch socket is gone.
        let pid = process.processIdentifier
        let ended = await stillRunning([pid], after: 10).isEmpty
        #expect(ended, "headway still runs 10 s after the signal")
        // Left alone, the spinning web process runs on for about 10 s after headway is gone.
        let left = await stillRunning(Array(tree.keys), after: 3)
        #expect(left.isEmpty, "left running: \(left.map { "\($0) \(tree[$0] ?? "")" })")
        guard ended, left.isEmpty else { return }
        let reaped = await onOwnThread { () -> Bool in
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning, Date() < deadline { usleep(20_000) }
            return !process.isRunning
        }
        #expect(reaped, "Foundation's Process still reports headway running 10 s after it ended")
        guard reaped else { return }
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == signal,
                "reason \(process.terminationReason.rawValue), status \(process.terminationStatus)")
    }

    /// Waits (at most 60 s) until the page spins: the server answered its request and its web
    /// process has used CPU for a while. Returns the process tree below headway.
    nonisolated static func spinning(_ process: Process, answered: Flag) async -> [Int32: String] {
        await onOwnThread {
            let deadline = Date().addingTimeInterval(60)
            var tree: [Int32: String] = [:]
            var start: [Int32: Int] = [:]
            while process.isRunning, Date() < deadline {
                tree.merge(descendants(of: process.processIdentifier)) { a, _ in a }
                if answered.isSet {
                    for pid in tree.keys where tree[pid]?.hasPrefix("WebKitWebProc") == true {
                        guard let ticks = cpuTicks(pid) else { continue }
                        // 30 clock ticks (0.3 s at 100 Hz) of CPU after the answer: it spins.
                        if let first = start[pid] { if ticks - first >= 30 { return tree } } else { start[pid] = ticks }
                    }
                }
                usleep(20_000)
            }
            return [:]
        }
    }

    nonisolated static func cpuTicks(_ pid: Int32) -> Int? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }
}

final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
