import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// Every async API stops its work and throws `CancellationError` soon after its task is
/// cancelled, and the page works normally afterwards. The bounds are generous hang bounds: each
/// call below would otherwise run for 20 s.
@Suite("Task cancellation", .serialized)
@EngineActor
struct CancellationTests {
    /// Cancels `task` once it has run for 200 ms and returns how long it took to end after that.
    private func cancel<T: Sendable>(_ task: Task<T, Error>) async throws -> (Result<T, Error>, Duration) {
        try await Task.sleep(for: .milliseconds(200))
        let clock = ContinuousClock()
        let start = clock.now
        task.cancel()
        let result = await task.result
        return (result, clock.now - start)
    }

    private func expectCancelled<T>(_ result: Result<T, Error>, within elapsed: Duration,
                                    sourceLocation: SourceLocation = #_sourceLocation) {
        guard case .failure(let error) = result else {
            Issue.record("the call finished instead of being cancelled", sourceLocation: sourceLocation)
            return
        }
        #expect(error is CancellationError, "threw \(error)", sourceLocation: sourceLocation)
        #expect(elapsed < .seconds(2), "took \(elapsed) to stop", sourceLocation: sourceLocation)
    }

    @Test func aCancelledLoadStopsAndThePageLoadsNormallyAfterwards() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        try await Browser.withPage { page in
            let hang = server.url.appendingPathComponent("hang")
            let (result, elapsed) = try await cancel(Task { try await page.load(hang, timeout: .seconds(20)) })
            expectCancelled(result, within: elapsed)
            let next = try await page.load(server.url.appendingPathComponent("second.html"))
            #expect(next.title == "Second")
            // Already cancelled: nothing starts.
            let early = Task { @EngineActor in
                withUnsafeCurrentTask { $0?.cancel() }
                return try await page.load(hang, timeout: .seconds(20))
            }
            await #expect(throws: CancellationError.self) { try await early.value }
        }
    }

    @Test func cancelledJavaScriptCallsAndSnippetsStop() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("page.html"))
            let (called, e2) = try await cancel(
                Task { try await page.callAsyncFunction("await new Promise(() => {})", timeout: .seconds(20)) }
            )
            expectCancelled(called, within: e2)
            let snippet = Snippet(file: "forever.js", source: "await new Promise(() => {})")
            let (ran, e3) = try await cancel(Task { try await page.run(snippet, timeout: .seconds(20)) })
            expectCancelled(ran, within: e3)
            // The page was only waiting, not stuck: it keeps its document and answers.
            #expect(try await page.evaluate("document.title") == .string(Fixtures.pageTitle))
            // `evaluate` does not await promises (one comes back as an error at once), so cancel
            // a script that never returns instead; the stuck page then loses its web process.
            let (evaluated, e1) = try await cancel(
                Task { try await page.evaluate("while (true) {}", timeout: .seconds(20)) }
            )
            expectCancelled(evaluated, within: e1)
            let next = try await page.load(server.url.appendingPathComponent("second.html"))
            #expect(next.title == "Second")
        }
    }

    @Test func aCancelledMeasureStopsItsLoad() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        try await Browser.withBrowser { browser in
            let hang = server.url.appendingPathComponent("hang")
            let (result, elapsed) = try await cancel(
                Task { try await browser.measure(hang, runs: 3, timeout: .seconds(20)).summary }
            )
            expectCancelled(result, within: elapsed)
            #expect(server.requestCount(path: "/hang") <= 1, "no further run started")
        }
    }

    @Test func aCancelledSettlePrefetchReturnsEarly() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/links.html", .html("<!doctype html><title>Links</title><a href=\"/slow.html\">slow</a>"))
        server.route("/slow.html", .hang)
        try await Browser.withBrowser(configuration: BoosterSite.configuration()) { browser in
            try await browser.newPage().load(server.url.appendingPathComponent("links.html"))
            let settle = Task { @EngineActor in await browser.settlePrefetch(timeout: .seconds(20)) }
            try await Task.sleep(for: .milliseconds(200))
            let clock = ContinuousClock()
            let start = clock.now
            settle.cancel()
            await settle.value
            #expect(clock.now - start < .seconds(2))
            #expect(server.requestCount(path: "/slow.html") == 1, "the prefetch was under way")
        }
    }

    @Test func aFirstLoadCancelledWhileTheServerIsSilentStopsBeforeAnyAnswer() async throws {
        let silent = try MisbehavingServer(othersAreSilent: true)
        defer { silent.stop() }
        // A fresh browser: the first load also launches the page's web process.
        let load = Task { @EngineActor in
            try await Browser.withPage { page in
                try await page.load(silent.url.appendingPathComponent("hang1"), timeout: .seconds(20))
            }
        }
        // Cancelled once the request waits on the server, which never answers.
        let clock = ContinuousClock()
        let asked = clock.now + .seconds(20)
        while !silent.requestedPaths.contains("/hang1"), clock.now < asked {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(silent.requestedPaths.contains("/hang1"))
        let start = clock.now
        load.cancel()
        let result = await load.result
        expectCancelled(result, within: clock.now - start)
    }
}
