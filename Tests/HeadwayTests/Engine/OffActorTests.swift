import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// The public API used from outside the engine actor: a plain async test, the main actor and a
/// task group. Each browser and page here is dropped on a thread other than the engine's, which
/// must release its engine objects on the engine thread (WebKit aborts otherwise).
@Suite("Public API off the engine actor", .serialized)
struct OffActorTests {
    @Test func plainAsyncCallersCanLoadEvaluateAndDropEverything() async throws {
        let server = try await Fixtures.server()
        let url = await server.url.appendingPathComponent("page.html")
        for _ in 0..<4 {
            let browser = try await Browser()
            let page = try await browser.newPage()
            let result = try await page.load(url)
            #expect(result.title == Fixtures.pageTitle)
            #expect(try await page.evaluate("1 + 1") == .number(2))
            // Neither is closed: both go away here, on a cooperative-pool thread.
        }
        // A browser dropped while its page lives on: the page keeps working.
        let orphan = try await Browser().newPage()
        #expect(try await orphan.load(url).status == 200)
        await server.stop()
    }

    @Test @MainActor func mainActorCallersCanUseTheAPI() async throws {
        let server = try await Fixtures.server()
        let url = await server.url.appendingPathComponent("second.html")
        for _ in 0..<3 {
            let browser = try await Browser()
            let title = try await browser.newPage().load(url).title
            #expect(title == "Second")
        }
        let title = try await Browser.withPage { page in try await page.load(url).title }
        #expect(title == "Second")
        await server.stop()
    }

    @Test func severalBrowsersInATaskGroup() async throws {
        let server = try await Fixtures.server()
        let base = await server.url
        let titles = try await withThrowingTaskGroup(of: String.self) { group in
            for i in 0..<4 {
                group.addTask {
                    let browser = try await Browser()
                    let page = try await browser.newPage()
                    let path = i.isMultiple(of: 2) ? "page.html" : "second.html"
                    return try await page.load(base.appendingPathComponent(path)).title
                }
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(titles.sorted() == [Fixtures.pageTitle, Fixtures.pageTitle, "Second", "Second"])
        await server.stop()
    }

    @Test func withBrowserClosesItsPagesAfterTheBody() async throws {
        let server = try await Fixtures.server()
        let url = await server.url.appendingPathComponent("page.html")
        let (title, page) = try await Browser.withBrowser { browser in
            let page = try browser.newPage()
            return (try await page.load(url).title, page)
        }
        #expect(title == Fixtures.pageTitle)
        let error = await #expect(throws: HeadwayError.self) { try await page.load(url) }
        #expect(error?.code == .closed)
        await server.stop()
    }
}
