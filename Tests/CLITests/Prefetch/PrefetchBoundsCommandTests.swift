import Foundation
import Headway
import HeadwayTestSupport
import Testing

// The slow page's prefetch takes all four slots with links that drip or never answer. Settle is
// a hard bound: at its end they are cancelled, so the next page's prefetch gets its slots. The
// wall-time bound is a correctness bound, far below what a held slot or connection costs
// (libsoup's 60 s, or forever for a drip).
@Suite("headway load --prefetch-settle bounds", .serialized)
@EngineActor
struct PrefetchBoundsCommandTests {
    @Test func slowLinksNeverHoldTheRunPastSettle() async throws {
        let site = try SlowSite()
        defer { site.stop() }
        // Eager, so that all four slow links are asked for at once.
        let arguments = ["load", "--prefetch", "--prefetch-eagerness", "eager", "--prefetch-settle", "1",
                         site.page.absoluteString,
                         site.server.url.appendingPathComponent("page.html").absoluteString,
                         site.server.url.appendingPathComponent("throws.html").absoluteString]
        let started = ContinuousClock.now
        let output = try await Task.detached { try CLI.run(arguments, timeout: 90) }.value
        let elapsed = ContinuousClock.now - started
        #expect(output.status == 0, "\(output.stderr)")
        #expect(elapsed < .seconds(15), "the run took \(elapsed)")
        let loads = try #require(try CLI.json(output)["loads"] as? [[String: Any]])
        #expect(loads.map { $0["title"] as? String } == ["Slow links", Fixtures.pageTitle, "Throws"])
        #expect(site.server.requests.contains { $0.path == "/second.html" && $0.purpose == "prefetch" },
                "page.html's prefetch got a slot once settle cancelled the slow ones")
        #expect(site.stalling.requestedPaths.count == 4)
        #expect(output.leftover().isEmpty, "processes left behind: \(output.descendants)")
    }

    @Test func settleCancelsSlowPrefetchesWhileTheRunGoesOn() async throws {
        let site = try SlowSite()
        defer { site.stop() }
        let input = Pipe(), out = Pipe()
        let process = try CLI.start(
            ["load", "--prefetch", "--prefetch-eagerness", "eager", "--prefetch-settle", "1", "--urls", "-",
             "--format", "jsonl"],
            environment: ["DISPLAY": nil], stdin: input, stdout: out
        )
        defer { if process.isRunning { process.terminate() } }
        let watchdog = Task.detached {
            try await Task.sleep(for: .seconds(60))
            if process.isRunning { process.terminate() }
        }
        defer { watchdog.cancel() }
        let lines = [site.page, site.server.url.appendingPathComponent("page.html")]
            .map { "\($0.absoluteString)\n" }
            .joined()
        try input.fileHandleForWriting.write(contentsOf: Data(lines.utf8))
        // Both results come while stdin stays open (headway waits for more lines).
        let results = await onOwnThread { () -> Int in
            var count = 0, byte = Data()
            while count < 2, let chunk = try? out.fileHandleForReading.read(upToCount: 1), !chunk.isEmpty {
                byte = chunk
                if byte.first == UInt8(ascii: "\n") { count += 1 }
            }
            return count
        }
        #expect(results == 2)
        let tree = Array(descendants(of: process.processIdentifier).keys)
        // The run goes on, and the slow prefetches of the first page are gone: their server saw
        // every connection closed.
        _ = try? await waitFor("the slow server's connections closed", within: .seconds(5),
                               { site.stalling.openConnections }, until: { $0 == 0 })
        #expect(process.isRunning)
        #expect(site.stalling.requestedPaths.count == 4)
        #expect(site.stalling.openConnections == 0, "a slow prefetch outlived settle")
        try input.fileHandleForWriting.close()
        await onOwnThread { process.waitUntilExit() }
        #expect(process.terminationStatus == 0)
        #expect(await stillRunning(tree, after: 5).isEmpty, "processes left behind")
    }
}
