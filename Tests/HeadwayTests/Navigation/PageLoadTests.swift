import Foundation
import Headway
import HeadwayTestSupport
import Testing

@Suite("Page loads", .serialized)
@EngineActor
struct PageLoadTests {
    @Test func loadReportsTitleStatusAndTiming() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        try await Browser.withPage { page in
            let result = try await page.load(server.url.appendingPathComponent("page.html"))
            #expect(result.title == Fixtures.pageTitle)
            #expect(result.status == 200)
            #expect(result.finalURL == server.url.appendingPathComponent("page.html"))
            let t = result.timing
            #expect(t.started >= .zero && t.started <= t.committed && t.committed <= t.finished)
            #expect(t.loadEventEnd > 0)
            #expect(t.domInteractive > 0 && t.domInteractive <= t.domContentLoadedEventEnd)
            #expect(t.domContentLoadedEventEnd <= t.loadEventEnd)
            // Navigation Timing has whole milliseconds here: a loopback answer can start at 0.
            #expect(t.responseStart >= 0 && t.responseStart <= t.domInteractive)
            #expect(result.resources.count == 2)
            #expect(page.title == Fixtures.pageTitle)
            #expect(!page.isLoading)
        }
    }

    @Test func redirectEndsOnTheTarget() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        try await Browser.withPage { page in
            let result = try await page.load(server.url.appendingPathComponent("redirect"))
            #expect(result.url.path == "/redirect")
            #expect(result.finalURL.path == "/page.html")
            #expect(result.status == 200)
        }
    }

    @Test func httpErrorStatusIsAResultNotAFailure() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        try await Browser.withPage { page in
            let result = try await page.load(server.url.appendingPathComponent("missing"))
            #expect(result.status == 404)
            #expect(result.title == "Gone")
        }
    }

    @Test func refusedConnectionFailsWithTheGError() async throws {
        let server = try Fixtures.server()
        let url = server.url.appendingPathComponent("page.html")
        server.stop()
        try await Browser.withPage { page in
            let error = await #expect(throws: HeadwayError.self) { try await page.load(url, timeout: .seconds(20)) }
            #expect(error?.code == .loadFailed)
            #expect(error?.gerror != nil)
        }
    }

    @Test func blockedPortEndingOnAboutBlankIsAnError() async throws {
        try await Browser.withPage { page in
            let error = await #expect(throws: HeadwayError.self) {
                try await page.load(URL(string: "http://127.0.0.1:9/")!, timeout: .seconds(20))
            }
            #expect(error?.code == .blockedURL)
        }
    }

    @Test func loadThatNeverFinishesTimesOut() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        try await Browser.withPage { page in
            let error = await #expect(throws: HeadwayError.self) {
                try await page.load(server.url.appendingPathComponent("hang"), timeout: .seconds(1))
            }
            #expect(error?.code == .timeout)
            // The page is still usable afterwards.
            let result = try await page.load(server.url.appendingPathComponent("second.html"))
            #expect(result.title == "Second")
        }
    }

    @Test func historyNavigation() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("page.html"))
            try await page.load(server.url.appendingPathComponent("second.html"))
            #expect(page.state.canGoBack)
            // What a traversal by a delta checks before it moves (BiDi's traverseHistory).
            #expect(page.hasHistoryEntry(-1) && page.hasHistoryEntry(0))
            #expect(!page.hasHistoryEntry(-2) && !page.hasHistoryEntry(1) && !page.hasHistoryEntry(Int.min))
            let back = try await page.goBack()
            #expect(back.finalURL.path == "/page.html")
            #expect(page.hasHistoryEntry(1) && !page.hasHistoryEntry(2))
            let forward = try await page.goForward()
            #expect(forward.finalURL.path == "/second.html")
            let again = try await page.reload()
            #expect(again.title == "Second")
            await #expect(throws: HeadwayError.self) { try await page.goForward() }
        }
    }

    @Test func stateUpdatesKeepEarlyChanges() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("page.html"))
            // Subscribing after the load still gives the latest state first.
            var iterator = page.stateUpdates().makeAsyncIterator()
            let first = await iterator.next()
            #expect(first?.title == Fixtures.pageTitle)
            #expect(first?.isLoading == false)
            #expect(first?.estimatedProgress == 1)
        }
    }

    @Test func eventsAreBufferedFromTheStart() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let browser = try Browser()
        let page = try browser.newPage()
        try await page.load(server.url.appendingPathComponent("page.html"))
        browser.close()
        var kinds: [String] = []
        for await event in page.events {
            switch event {
            case .navigationStarted: kinds.append("started")
            case .navigationCommitted: kinds.append("committed")
            case .navigationFinished: kinds.append("finished")
            case .console(let message): kinds.append("console \(message.text)")
            default: break
            }
        }
        #expect(kinds.filter { !$0.hasPrefix("console") } == ["started", "committed", "finished"])
        #expect(kinds.contains("console fixture says 42"))
    }

    @Test func closedPageRefusesWork() async throws {
        let browser = try Browser()
        let page = try browser.newPage()
        page.close()
        let error = await #expect(throws: HeadwayError.self) { try await page.load(URL(string: "about:blank")!) }
        #expect(error?.code == .closed)
        browser.close()
        #expect(throws: HeadwayError.self) { try browser.newPage() }
    }
}
