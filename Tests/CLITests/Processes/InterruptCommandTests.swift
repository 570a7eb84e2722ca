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
        let log = try Fixtures.file("headway-\(signal)-\(spin).log", "")
        let stderr = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        defer { try? stderr.close() }
        let process = try CLI.start(arguments, stderr: stderr)
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let watch = await Self.spinning(process, answered: answered)
        #expect(watch.spun, """
            no web process spins: answered \(answered.isSet), running \(process.isRunning), \
            tree \(watch.tree), CPU ticks (first, last) \(watch.ticks); headway's stderr:
            \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "(unreadable)")
            """)
        guard watch.spun else { return }
        let tree = watch.tree
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

    /// What `spinning` saw: every process below headway, the CPU ticks of each web process
    /// (when first read after the page was sent, and last), and whether one of them spun.
    nonisolated struct Watch: Sendable {
        var tree: [Int32: String] = [:]
        var ticks: [Int32: (first: Int, last: Int)] = [:]
        var spun = false
    }

    /// Waits (at most 60 s) until the page spins: once the server sent the page, its web process
    /// used a second of CPU, far more than a page of a few lines takes to load. Returns what it
    /// saw, so that a failure can show the process tree and the CPU use.
    nonisolated static func spinning(_ process: Process, answered: Flag) async -> Watch {
        await onOwnThread {
            let deadline = Date().addingTimeInterval(60)
            var watch = Watch()
            while process.isRunning, Date() < deadline {
                merge(descendants(of: process.processIdentifier), into: &watch.tree)
                if answered.isSet {
                    for pid in watch.tree.keys where watch.tree[pid]?.hasPrefix("WebKitWebProc") == true {
                        guard let ticks = cpuTicks(of: pid) else { continue }
                        let first = watch.ticks[pid]?.first ?? ticks
                        watch.ticks[pid] = (first, ticks)
                        if ticks - first >= 100 {
                            watch.spun = true
                            return watch
                        }
                    }
                }
                usleep(20_000)
            }
            return watch
        }
    }
}

final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
