import Foundation
import Headway
import HeadwayTestSupport
import Testing

@Suite("Engine thread")
struct EngineTests {
    @EngineActor
    private static func threadName() -> String {
        let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
        return comm.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test func engineActorJobsRunOnTheEngineThread() async {
        #expect(await Self.threadName() == "headway-engine")
    }

    @Test func manyConcurrentCallersEachGetOneAnswer() async throws {
        let server = try await Fixtures.server()
        let page = try await Browser().newPage()
        _ = try await page.load(server.url.appendingPathComponent("page.html"))
        let values = try await withThrowingTaskGroup(of: JSONValue.self) { group in
            for i in 0..<50 {
                group.addTask { try await page.evaluate("\(i) * 2") }
            }
            return try await group.reduce(into: [JSONValue]()) { $0.append($1) }
        }
        #expect(Set(values.compactMap(\.doubleValue)) == Set((0..<50).map { Double($0 * 2) }))
        await page.close()
        await server.stop()
    }

    // WebKit makes its IPC and scrolling threads real-time when it may (as root, which CI is);
    // their spin-waits then stalled loads for about a second now and then. As another user it
    // cannot, and this holds either way.
    @Test func noThreadOfWebKitRunsAtRealTimePriority() async throws {
        let server = try await Fixtures.server()
        let page = try await Browser().newPage()
        _ = try await page.load(server.url.appendingPathComponent("page.html"))
        let me = getpid()
        var found: [String] = realTimeThreads(of: me).map { "headway: \($0)" }
        for (pid, name) in descendants(of: me) {
            found += realTimeThreads(of: pid).map { "\(name): \($0)" }
        }
        #expect(descendants(of: me).values.contains("WebKitWebProces"))
        #expect(found.isEmpty, "real-time threads: \(found)")
        await page.close()
        await server.stop()
    }
}
