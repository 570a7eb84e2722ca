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
        let spinning = "while (true) {}"
        server.route("/spin.html", .html("<!doctype html><title>Spin</title><script>\(spinning)</script>"))
        let path = spin == .inThePage ? "/spin.html" : "/page.html"
        let answered = Flag()
        server.onRequest = { if $0.path == path { answered.set() } }
        let page = server.url.appendingPathComponent(path)
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

    /// Waits (at most 60 s) until the page spins: once the server sent the page, its web process
    /// used a second of CPU, far more than a page of a few lines takes to load. Returns the
    /// process tree below headway, or nothing if the page did not spin.
    nonisolated static func spinning(_ process: Process, answered: Flag) async -> [Int32: String] {
        await onOwnThread {
            let deadline = Date().addingTimeInterval(60)
            var tree: [Int32: String] = [:]
            var start: [Int32: Int] = [:]
            while process.isRunning, Date() < deadline {
                tree.merge(descendants(of: process.processIdentifier)) { a, _ in a }
                if answered.isSet {
                    for pid in tree.keys where tree[pid]?.hasPrefix("WebKitWebProc") == true {
                        guard let ticks = cpuTicks(of: pid) else { continue }
                        guard let first = start[pid] else {
                            start[pid] = ticks
                            continue
                        }
                        if ticks - first >= 100 { return tree }
                    }
                }
                usleep(20_000)
            }
            return [:]
        }
    }
}

final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
