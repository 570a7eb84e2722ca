import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// A page can be hidden and shown again, as a minimized and restored window's page: its document
/// sees `visibilityState` change, with its `visibilitychange` events.
@Suite("Page visibility", .serialized)
@EngineActor
struct VisibilityTests {
    static let watch = """
        window.seen = [];
        document.addEventListener('visibilitychange', () => seen.push(document.visibilityState));
        """

    @Test func hidingAndShowingChangeTheDocumentsVisibility() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("page.html"))
            #expect(page.isVisible)
            #expect(try await page.evaluate("document.visibilityState") == "visible")
            _ = try await page.evaluate(Self.watch)
            try await page.setVisible(false)
            #expect(!page.isVisible)
            #expect(try await page.evaluate("[document.visibilityState, document.hidden, seen]")
                    == ["hidden", true, ["hidden"]])
            try await page.setVisible(true)
            #expect(page.isVisible)
            #expect(try await page.evaluate("[document.visibilityState, seen]") == ["visible", ["hidden", "visible"]])
            // Showing a shown page changes nothing.
            try await page.setVisible(true)
            #expect(try await page.evaluate("seen.length") == 2)
        }
    }

    @Test func aHiddenPageLoadsRunsScriptsAndStaysHidden() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("page.html"))
            try await page.setVisible(false)
            try await page.load(server.url.appendingPathComponent("second.html"))
            #expect(page.title == "Second")
            #expect(try await page.evaluate("document.visibilityState") == "hidden")
            let shot = try await page.screenshot()
            #expect(shot.width == page.viewportSize.width && !shot.isBlank)
            try await page.setVisible(true)
            #expect(try await page.evaluate("document.visibilityState") == "visible")
        }
    }

    @Test func aHiddenPageTakesInputAndItsNewSizeOnceShown() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/input.html", .html("""
            <!doctype html><title>Input</title><input id=field autofocus>
            <script>window.seen = []; addEventListener('mousedown', () => seen.push('mousedown'));</script>
            """))
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("input.html"))
            try await page.setVisible(false)
            try await page.type("ab")
            try await page.click(x: 5, y: 5, button: .left, clickCount: 1)
            #expect(try await page.evaluate("[field.value, seen]") == ["ab", ["mousedown"]])
            try await page.setViewportSize(width: 500, height: 400)
            #expect(try await page.evaluate("document.visibilityState") == "hidden")
            try await page.setVisible(true)
            #expect(page.viewportSize == (500, 400))
            #expect(try await page.evaluate("[innerWidth, innerHeight, document.visibilityState]")
                    == [500, 400, "visible"])
        }
    }

    @Test func aHiddenPageShowingAPrerenderedPageStaysHidden() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/index.html", .html("<!doctype html><title>Index</title><a href=\"/b.html\">B</a>"))
        server.route("/b.html", .html("<!doctype html><title>B</title><p>b"))
        var configuration = Browser.Configuration()
        configuration.booster = BoosterConfiguration()
        configuration.booster?.prerender = 1
        try await Browser.withBrowser(configuration: configuration) { browser in
            let page = try browser.newPage()
            try await page.load(server.url.appendingPathComponent("index.html"))
            try await page.setVisible(false)
            await browser.settlePrefetch()
            let b = try await page.load(server.url.appendingPathComponent("b.html"))
            #expect(b.prefetch?.prerendered == true)
            #expect(!page.isVisible)
            #expect(try await page.evaluate("document.visibilityState") == "hidden")
            try await page.setVisible(true)
            #expect(try await page.evaluate("document.visibilityState") == "visible")
        }
    }

    @Test func aClosedPageCannotChangeItsVisibility() async throws {
        try await Browser.withPage { page in
            page.close()
            #expect(!page.isVisible)
            let error = await #expect(throws: HeadwayError.self) { try await page.setVisible(false) }
            #expect(error?.code == .closed)
        }
    }
}
