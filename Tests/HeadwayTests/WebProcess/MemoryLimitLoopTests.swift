import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// A page allocating in a loop that never yields to its event loop still meets
/// `webProcessMemoryLimit`: its load fails with `.engine` naming the limit, its web process
/// stays near the limit, and the next load works in a fresh process.
@Suite("Memory limit against a tight allocation loop", .serialized)
@EngineActor
struct MemoryLimitLoopTests {
    @Test func aPageAllocatingInATightLoopIsKilledNearTheLimit() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        var configuration = Browser.Configuration()
        configuration.webProcessMemoryLimit = 300
        let delegate = RecordingDelegate()
        let peak = PeakWebProcessMemory()
        try await Browser.withPage(configuration: configuration, delegate: delegate) { page in
            let error = await #expect(throws: HeadwayError.self) {
                try await page.load(server.url.appendingPathComponent("loop-hog.html"), timeout: .seconds(20))
            }
            #expect(error?.code == .engine, "\(error?.description ?? "")")
            #expect(error?.message.contains("used more memory than its limit (300 MB)") == true,
                    "\(error?.message ?? "")")
            #expect(delegate.calls.contains("terminated exceededMemoryLimit"))
            let next = try await page.load(server.url.appendingPathComponent("second.html"))
            #expect(next.title == "Second")
        }
        // The loop would hold 3 GB; killed near its 300 MB limit, it never gets close.
        let bytes = peak.stop()
        #expect(bytes < 1_500 << 20, "a web process reached \(bytes >> 20) MB")
    }
}
