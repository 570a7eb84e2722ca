import Foundation
import Headway
import HeadwayTestSupport
import Testing

@Suite("Chaining navigation delegate", .serialized)
@EngineActor
struct DelegateTests {
    @Test func everyNavigationCallbackReachesTheUserDelegateInOrder() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let delegate = RecordingDelegate()
        _ = try await Browser.withPage(delegate: delegate) { page in
            try await page.load(server.url.appendingPathComponent("redirect"))
        }
        let calls = delegate.calls.filter {
            !$0.hasPrefix("resource") || $0.contains("/redirect") || $0.contains("style")
        }
        #expect(
            calls == [
                "policy navigation /redirect",
                "started /redirect",
                "resource GET /redirect",
                "policy navigation /page.html",
                "redirected /page.html",
                "committed /page.html",
                "resource GET /style.css",
                "finished /page.html",
            ]
        )
        #expect(delegate.calls.contains("resource GET /pixel.svg"))
    }

    @Test func failureIsForwarded() async throws {
        let delegate = RecordingDelegate()
        let server = try Fixtures.server()
        let url = server.url.appendingPathComponent("page.html")
        server.stop()
        try await Browser.withPage(delegate: delegate) { page in
            _ = try? await page.load(url, timeout: .seconds(20))
        }
        #expect(delegate.calls.contains("failed /page.html"))
        #expect(delegate.calls.last?.hasPrefix("finished") == true)
    }

    @Test func theUsersPolicyAnswerWins() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let delegate = RecordingDelegate()
        delegate.cancelPaths = ["/second.html"]
        try await Browser.withPage(delegate: delegate) { page in
            let error = await #expect(throws: HeadwayError.self) {
                try await page.load(server.url.appendingPathComponent("second.html"), timeout: .seconds(10))
            }
            #expect(error?.message.contains("cancelled") == true)
            #expect(server.requestCount(path: "/second.html") == 0)
            let ok = try await page.load(server.url.appendingPathComponent("page.html"))
            #expect(ok.title == Fixtures.pageTitle)
        }
    }

    @Test func delegateCanBeSwappedAndIsNotRetainedByTheEngine() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        try await Browser.withPage { page in
            var delegate: RecordingDelegate? = RecordingDelegate()
            weak let weakDelegate = delegate
            page.delegate = delegate
            try await page.load(server.url.appendingPathComponent("second.html"))
            #expect(delegate?.calls.contains("finished /second.html") == true)
            // Swapped: the next load's callbacks reach the new delegate only.
            let next = RecordingDelegate()
            page.delegate = next
            delegate = nil
            #expect(weakDelegate == nil)
            try await page.load(server.url.appendingPathComponent("page.html"))
            #expect(next.calls.contains("finished /page.html"), "\(next.calls)")
            #expect(!next.calls.contains("finished /second.html"), "\(next.calls)")
        }
    }
}
