import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// A snippet's navigation is found from WebKit's navigation signals, whatever its text says.
@Suite("Snippet navigation", .serialized)
@EngineActor
struct SnippetNavigationTests {
    @Test func aClickWithNoTelltaleWordsIsFollowed() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("page.html"))
            let result = try await page.run(
                Snippet(file: "follow.js", source: "const a = document.links[0]; a['cl' + 'ick'](); 'went'")
            )
            #expect(result.error == nil, "\(String(describing: result.error))")
            #expect(result.value == .string("went"))
            #expect(result.navigatedTo?.path == "/second.html")
            #expect(result.navigatedStatus == 200)
            #expect(page.title == "Second")
            let event = try await page.run(Snippet(file: "event.js", source: """
                const link = document.createElement('a');
                link.href = '/page.html';
                document.body.append(link);
                link.dispatchEvent(new MouseEvent('cl' + 'ick', { bubbles: true }))
                """))
            #expect(event.navigatedTo?.path == "/page.html")
        }
    }

    @Test func aSnippetThatOnlyMentionsLocationReturnsWithoutANavigation() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("page.html"))
            let clock = ContinuousClock()
            let start = clock.now
            let result = try await page.run(
                Snippet(
                    file: "read.js",
                    source: "// not location.href = ...\nlocation.pathname + ' ' + typeof history.back"
                )
            )
            #expect(clock.now - start < .seconds(1))
            #expect(result.value == .string("/page.html function"))
            #expect(result.navigatedTo == nil)
            #expect(result.navigatedStatus == nil)
        }
    }

    @Test func aNavigationToAnErrorPageReportsItsStatus() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("page.html"))
            let result = try await page.run(Snippet(file: "gone.js", source: "location.href = '/missing'"))
            #expect(result.navigatedTo?.path == "/missing")
            #expect(result.navigatedStatus == 404)
            #expect(result.error == nil)
        }
    }

    /// A snippet still awaiting when its navigation replaces the page ends at once: WebKit would
    /// never settle it, and it would run into its timeout.
    @Test func aSnippetAwaitingWhenItsPageIsReplacedEndsWithTheNavigation() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("page.html"))
            let result = try await page.run(Snippet(file: "leave.js", source: """
                document.links[0].click();
                await new Promise(done => setTimeout(done, 60000));
                'never'
                """), timeout: .seconds(20))
            #expect(result.error == nil, "\(String(describing: result.error))")
            #expect(result.value == .undefined)
            #expect(result.navigatedTo?.path == "/second.html")
            let next = try await page.run(Snippet(file: "after.js", source: "await 0; document.title"))
            #expect(next.value == .string("Second"))
        }
    }
}
