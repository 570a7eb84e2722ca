import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// When a part of the engine Headway started goes away mid-run, `headway` says so in one line
/// and exits with the engine status (69) instead of hanging.
@Suite("headway load when the engine fails", .serialized)
@EngineActor
struct EngineFailureCommandTests {
    @Test func itsXvfbEndingEndsTheRunWithOneLineAndExit69() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let run = try Started(["load", server.url.appendingPathComponent("hang").absoluteString, "--timeout", "20"])
        defer { run.stop() }
        try await waitFor("the request for /hang", { server.requestCount(path: "/hang") }, until: { $0 > 0 })
        let xvfb = try #require(descendants(of: run.process.processIdentifier).first { $0.value == "Xvfb" }?.key)
        kill(xvfb, SIGKILL)
        let clock = ContinuousClock()
        let start = clock.now
        let output = try await run.finish(within: 15)
        #expect(clock.now - start < .seconds(10))
        #expect(output.status == 69, "\(output.stderr)")
        #expect(output.stderr.split(separator: "\n").count == 1, "\(output.stderr)")
        #expect(output.stderr.hasPrefix("headway: error: the X server (Headway's Xvfb on :"), "\(output.stderr)")
        #expect(output.stderr.contains("ended unexpectedly"))
    }
}

/// A `headway` run started in the background (without DISPLAY), so a test can act on its
/// process tree while it runs.
final class Started: @unchecked Sendable {
    let process = Process()
    private let out = Pipe(), err = Pipe()

    init(_ arguments: [String]) throws {
        process.executableURL = try CLI.binary
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["DISPLAY"] = nil
        process.environment = env
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// Waits for the run to end; stops it and throws after `seconds`.
    func finish(within seconds: Double) async throws -> (status: Int32, stdout: String, stderr: String) {
        do {
            try await waitForExit(of: process, within: .seconds(seconds))
        } catch {
            stop()
            throw error
        }
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (process.terminationStatus, stdout, stderr)
    }

    func stop() {
        if process.isRunning { process.terminate() }
    }
}

@Suite("headway load when the network process dies", .serialized)
@EngineActor
struct NetworkProcessCommandTests {
    @Test func itsNetworkProcessEndingFailsTheLoadWithOneLineAndExit69() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let run = try Started(["load", server.url.appendingPathComponent("hang").absoluteString, "--timeout", "20"])
        defer { run.stop() }
        try await waitFor("the request for /hang", { server.requestCount(path: "/hang") }, until: { $0 > 0 })
        let network = descendants(of: run.process.processIdentifier).filter { $0.value.hasPrefix("WebKitNetwork") }.keys
        try #require(!network.isEmpty)
        for pid in network { kill(pid, SIGKILL) }
        let clock = ContinuousClock()
        let start = clock.now
        let output = try await run.finish(within: 30)
        #expect(clock.now - start < .seconds(10))
        #expect(output.status == 69, "\(output.stderr)")
        // WebKit's web process adds its own "ERROR: WebKit encountered an internal error" lines.
        let ours = output.stderr.split(separator: "\n").filter { $0.hasPrefix("headway:") }
        #expect(ours.count == 1, "\(output.stderr)")
        #expect(ours.first?.contains("its network process ends") == true, "\(output.stderr)")
    }
}
