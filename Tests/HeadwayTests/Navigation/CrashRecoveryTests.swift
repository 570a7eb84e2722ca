import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// When a page's web process crashes or is killed, a pending load fails at once with `.engine`,
/// the delegate hears why, and the next load works in a fresh web process.
@Suite("Web-process crash recovery", .serialized)
@EngineActor
struct CrashRecoveryTests {
    @Test func aProcessKilledForItsMemoryFailsThePendingLoad() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        var configuration = Browser.Configuration()
        configuration.webProcessMemoryLimit = 400
        let delegate = RecordingDelegate()
        try await Browser.withPage(configuration: configuration, delegate: delegate) { page in
            let error = await #expect(throws: HeadwayError.self) {
                try await page.load(server.url.appendingPathComponent("hog.html"), timeout: .seconds(60))
            }
            #expect(error?.code == .engine)
            #expect(error?.message.contains("used more memory than its limit") == true, "\(error?.message ?? "")")
            #expect(error?.message.contains("hog.html") == true)
            #expect(delegate.calls.contains("terminated exceededMemoryLimit"))
            let next = try await page.load(server.url.appendingPathComponent("second.html"))
            #expect(next.title == "Second")
        }
    }

    @Test func terminatingDuringAPendingLoadFailsItAndTheNextLoadWorks() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let delegate = RecordingDelegate()
        try await Browser.withPage(delegate: delegate) { page in
            let pending = Task { try await page.load(server.url.appendingPathComponent("hang"), timeout: .seconds(60)) }
            let started = await firstEvent(of: page, within: 20) {
                if case .navigationStarted = $0 { return true } else { return false }
            }
            try #require(started != nil, "the load never started")
            page.terminateWebProcess()
            let clock = ContinuousClock()
            let start = clock.now
            let result = await pending.result
            #expect(clock.now - start < .seconds(10), "the load waited for its timeout")
            guard case .failure(let error as HeadwayError) = result else {
                Issue.record("the load did not fail with a HeadwayError: \(result)")
                return
            }
            #expect(error.code == .engine)
            #expect(error.message.contains("was terminated") && error.message.contains("while loading"))
            #expect(delegate.calls.contains("terminated terminatedByAPI"))
            let next = try await page.load(server.url.appendingPathComponent("second.html"))
            #expect(next.title == "Second")
        }
    }

    @Test func terminatingAnIdlePageIsReportedAndTheNextLoadWorks() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let delegate = RecordingDelegate()
        try await Browser.withPage(delegate: delegate) { page in
            try await page.load(server.url.appendingPathComponent("page.html"))
            page.terminateWebProcess()
            let event = await firstEvent(of: page, within: 20) { $0.terminationReason != nil }
            #expect(event?.terminationReason == .terminatedByAPI)
            #expect(delegate.calls.last == "terminated terminatedByAPI")
            let again = try await page.load(server.url.appendingPathComponent("second.html"))
            #expect(again.title == "Second")
            #expect(try await page.evaluate("document.title") == .string("Second"))
        }
    }
}
