import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// A page stuck in JavaScript is stopped at its timeout: its web process is terminated, and the
/// next load gets a fresh one instead of waiting on the stuck page. The bounds are generous
/// hang bounds; without the fix the next load would wait out its whole timeout.
@Suite("Pages stuck in JavaScript", .serialized)
@EngineActor
struct StuckPageTests {
    @Test func aSnippetSpinningForeverTimesOutAndTheNextLoadWorks() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let delegate = RecordingDelegate()
        try await Browser.withPage(delegate: delegate) { page in
            try await page.load(server.url.appendingPathComponent("page.html"))
            let clock = ContinuousClock()
            let start = clock.now
            let result = try await page.run(Snippet(file: "spin.js", source: "while (true) {}"), timeout: .seconds(1))
            #expect(clock.now - start < .seconds(10))
            let message = try #require(result.error?.message)
            #expect(message.contains("did not settle within 1 s"))
            #expect(message.contains("web process was terminated"))
            #expect(delegate.calls.contains("terminated terminatedByAPI"))
            let next = try await page.load(server.url.appendingPathComponent("second.html"), timeout: .seconds(10))
            #expect(next.title == "Second")
            #expect(try await page.evaluate("1 + 1") == .number(2))
        }
    }

    @Test func aPageSpinningWhileItLoadsIsStoppedAtTheLoadTimeout() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/spin.html", .html("<!doctype html><title>Spin</title><script>while (true) {}</script>"))
        try await Browser.withPage { page in
            let error = await #expect(throws: HeadwayError.self) {
                try await page.load(server.url.appendingPathComponent("spin.html"), timeout: .seconds(2))
            }
            #expect(error?.code == .timeout)
            #expect(error?.message.contains("web process was terminated") == true, "\(error?.message ?? "")")
            let next = try await page.load(server.url.appendingPathComponent("second.html"), timeout: .seconds(10))
            #expect(next.title == "Second")
        }
    }

    @Test func anEvaluateThatNeverReturnsTimesOutAndThePageRecovers() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("page.html"))
            let error = await #expect(throws: HeadwayError.self) {
                try await page.evaluate("while (true) {}", timeout: .seconds(1))
            }
            #expect(error?.code == .scriptTimeout)
            let next = try await page.load(server.url.appendingPathComponent("page.html"), timeout: .seconds(10))
            #expect(next.title == Fixtures.pageTitle)
        }
    }

    @Test func aPromiseThatNeverSettlesKeepsThePage() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("page.html"))
            _ = try await page.evaluate("window.marker = 42")
            let result = try await page.run(
                Snippet(file: "wait.js", source: "await new Promise(() => {})"),
                timeout: .seconds(1)
            )
            #expect(result.error?.message.contains("did not settle") == true)
            #expect(result.error?.message.contains("terminated") == false)
            #expect(try await page.evaluate("window.marker") == .number(42))
        }
    }
}
