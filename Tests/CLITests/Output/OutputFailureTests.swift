import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// Output that cannot be written is never lost silently and never crashes: a broken pipe ends
/// the run quietly with 141 (as SIGPIPE would), any other error is one line and 74.
@Suite("headway load when stdout fails", .serialized)
@EngineActor
struct OutputFailureTests {
    nonisolated static let formats = ["json", "jsonl", "text"]

    @Test(arguments: formats)
    func aFullDiskIsOneLineAndStatus74(_ format: String) async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let url = server.url.appendingPathComponent("page.html").absoluteString
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let err = Pipe()
        let process = try CLI.start(
            ["load", url, url, "--format", format],
            environment: ["DISPLAY": nil],
            stdout: full,
            stderr: err
        )
        let stderr = await onOwnThread { err.fileHandleForReading.readDataToEndOfFile() }
        await onOwnThread { process.waitUntilExit() }
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 74)
        #expect(
            String(decoding: stderr, as: UTF8.self)
                == "headway: error: cannot write the output: No space left on device\n"
        )
    }

    @Test(arguments: formats)
    func aClosedStdoutIsOneLineAndStatus74(_ format: String) async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let url = server.url.appendingPathComponent("page.html").absoluteString
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // `>&-` closes descriptor 1 before headway starts.
        process.arguments = ["-c", #"exec "$0" "$@" >&-"#, try CLI.binary.path, "load", url, "--format", format]
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = nil
        process.environment = environment
        let err = Pipe()
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stderr = await onOwnThread { err.fileHandleForReading.readDataToEndOfFile() }
        await onOwnThread { process.waitUntilExit() }
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 74)
        #expect(
            String(decoding: stderr, as: UTF8.self) == "headway: error: cannot write the output: Bad file descriptor\n"
        )
    }

    /// `headway load … | head -c1`: the reader takes one byte and goes; the next write ends the
    /// run with 141, nothing on stderr, and WebKit's processes and Xvfb gone.
    @Test(arguments: formats)
    func aBrokenPipeEndsTheRunQuietlyWith141(_ format: String) async throws {
        // With a second of latency on every response, nothing is written for a second after the
        // server sees a request: time enough to close the reader before the next write.
        let server = try Fixtures.server(conditions: NetworkConditions(latency: .seconds(1)))
        defer { server.stop() }
        let urls = (1...2).map { server.url.appendingPathComponent("page.html").absoluteString + "?i=\($0)" }
        let out = Pipe(), err = Pipe()
        let process = try CLI.start(
            ["load"] + urls + ["--format", format],
            environment: ["DISPLAY": nil],
            stdout: out,
            stderr: err
        )
        let errors = Task { await onOwnThread { err.fileHandleForReading.readDataToEndOfFile() } }
        // Wait until the first request (WebKit's processes are running), then, for jsonl, read
        // one byte of the first line, and close.
        var tree: Set<Int32> = []
        try await waitFor("the first request", { server.requestCount(path: "/page.html") }, until: { $0 > 0 })
        tree.formUnion(descendants(of: process.processIdentifier).keys)
        if format == "jsonl" {
            let first = await onOwnThread { try? out.fileHandleForReading.read(upToCount: 1) }
            #expect(first == Data("{".utf8))
        }
        try out.fileHandleForReading.close()
        let stderr = await errors.value
        await onOwnThread { process.waitUntilExit() }
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 141)
        #expect(String(decoding: stderr, as: UTF8.self) == "")
        #expect(!tree.isEmpty, "WebKit's processes were seen")
        #expect(await stillRunning(Array(tree), after: 5).isEmpty, "left running: \(tree.filter(isRunning))")
    }
}
