import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// When WebKit's network process ends during a load, the load fails with `.engine` (it is the
/// engine's failure, not the site's) and the next load works with a fresh network process.
@Suite("Network-process crash during a load", .serialized)
@EngineActor
struct NetworkProcessCrashTests {
    // A page whose image never arrives (the page itself committed).
    @Test func killedWhileASubresourceLoads() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/waits.html", .html("<!doctype html><title>Waits</title><img src='/hang'>"))
        try await killNetworkProcess(loading: server.url.appendingPathComponent("waits.html"), next: server.url) {
            server.requestCount(path: "/hang") > 0
        }
    }

    // A page whose own body never ends.
    @Test func killedWhileTheDocumentLoads() async throws {
        let stalling = try MisbehavingServer(dripInterval: 0.2)
        defer { stalling.stop() }
        let server = try Fixtures.server()
        defer { server.stop() }
        try await killNetworkProcess(loading: stalling.url.appendingPathComponent("drip"), next: server.url) {
            stalling.requestedPaths.contains("/drip")
        }
    }

    private func killNetworkProcess(loading url: URL, next: URL,
                                    once reached: @escaping @EngineActor () -> Bool) async throws {
        try await Browser.withPage { page in
            let pending = Task { try await page.load(url, timeout: .seconds(60)) }
            let hung = await waitUntil(within: 20, reached)
            try #require(hung, "the stalling request never reached the server")
            let killed = killNetworkProcesses()
            try #require(!killed.isEmpty, "no WebKitNetworkProcess below this process")
            let clock = ContinuousClock()
            let start = clock.now
            let result = await pending.result
            #expect(clock.now - start < .seconds(20), "the load waited for its timeout")
            guard case .failure(let error as HeadwayError) = result else {
                Issue.record("the load did not fail with a HeadwayError: \(result)")
                return
            }
            #expect(error.code == .engine, "\(error)")
            #expect(error.message.contains("network process"), "\(error.message)")
            let again = try await page.load(next.appendingPathComponent("second.html"))
            #expect(again.title == "Second")
        }
    }
}

/// Sends SIGKILL to every WebKitNetworkProcess below this process; returns their pids.
func killNetworkProcesses() -> [Int32] {
    let pids = descendants(of: getpid()).filter { $0.value.hasPrefix("WebKitNetwork") }.map(\.key)
    for pid in pids { kill(pid, SIGKILL) }
    return pids
}

/// Polls `condition` every 20 ms until it holds or `seconds` pass (a hang bound).
func waitUntil(within seconds: Double, _ condition: @escaping @EngineActor () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return false
}
