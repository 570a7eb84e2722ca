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

    // A body that never ends (a byte every 0.2 s): its response is reported from its headers,
    // its end never.
    @Test func aResponseIsReportedWhenItsHeadersArrive() async throws {
        let stalling = try MisbehavingServer(dripInterval: 0.2)
        defer { stalling.stop() }
        let delegate = RequestLog()
        try await Browser.withPage(delegate: delegate) { page in
            try await page.load(stalling.url.appendingPathComponent("page.html"))
            _ = try await page.evaluate("fetch('/drip'); null")
            try await waitFor("the drip's response") {
                delegate.events.contains { $0.0 == "response" && $0.1.url.path == "/drip" }
            }
        }
        let drips = delegate.events.filter { $0.1.url.path == "/drip" }
        #expect(drips.map(\.0) == ["sent", "response"], "\(drips.map(\.0))")
        let response = try #require(drips.last?.1)
        #expect(response.response?.status == 200)
        #expect(response.ended == nil)
        let responded = try #require(response.responded)
        #expect(responded >= response.sent)
    }
}

final class RequestLog: NavigationDelegate {
    var events: [(String, ResourceRequest)] = []
    func page(_ page: Page, didSendRequest request: ResourceRequest) { events.append(("sent", request)) }
    func page(_ page: Page, didReceiveResponse request: ResourceRequest) { events.append(("response", request)) }
    func page(_ page: Page, didEndRequest request: ResourceRequest) { events.append(("ended", request)) }
}
