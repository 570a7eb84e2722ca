import Foundation
import Headway
import Testing

/// Windows a page opens itself (`window.open`, `target=_blank`) become pages of its browser,
/// which hold them until they close, by `window.close()` too.
@Suite("Popups", .serialized)
@EngineActor
struct PopupTests {
    private static let opener = """
        <title>Opener</title><a id="link" target="_blank" href="/child.html">child</a>
        """
    private static let child = "<title>Child</title><p>child</p>"

    private func server() throws -> HTTPServer {
        let server = try HTTPServer()
        server.route("/opener.html", .html(Self.opener))
        server.route("/child.html", .html(Self.child))
        server.route("/scripted.html", .html("<title>Child</title><script src='/blocked.js'></script>"))
        let script = Data("window.ran = true;".utf8)
        server.route("/blocked.js", HTTPResponse(headers: [("Content-Type", "text/javascript")], body: script))
        server.route("/auto.html", .html("<script>window.w = window.open('/child.html');</script>"))
        return server
    }

    // Waits (at most 10 s) until `condition` holds, and says whether it did.
    private func until(_ condition: () async throws -> Bool) async rethrows -> Bool {
        for _ in 0..<200 {
            if try await condition() { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return try await condition()
    }

    // The page `page` opened last, once its document has loaded.
    private func loadedPopup(of page: Page, count: Int = 1) async throws -> Page {
        #expect(await until { page.openedPages.count == count })
        let popup = try #require(page.openedPages.last)
        #expect(try await until {
            try await popup.evaluate("document.readyState == 'complete' && location.pathname") == "/child.html"
        })
        return popup
    }

    @Test func windowOpenReturnsAWindowWhosePageLoadsAndEvaluates() async throws {
        let server = try server()
        defer { server.stop() }
        try await Browser.withBrowser { browser in
            let page = try browser.newPage()
            try await page.load(server.url.appendingPathComponent("opener.html"))
            #expect(try await page.evaluate("window.w = window.open('/child.html'); window.w !== null") == true)
            let popup = try await loadedPopup(of: page)
            #expect(try await popup.evaluate("document.title") == "Child")
            #expect(try await popup.evaluate("window.opener.document.title") == "Opener")
            #expect(try await page.evaluate("window.w.document.title") == "Child")
            #expect(popup.opener === page)
            #expect(browser.openPages.count == 2)
        }
    }

    @Test func openerEventsAnnounceThePopup() async throws {
        let server = try server()
        defer { server.stop() }
        try await Browser.withBrowser { browser in
            let page = try browser.newPage()
            try await page.load(server.url.appendingPathComponent("opener.html"))
            _ = try await page.evaluate("window.open('/child.html'); 0")
            let popup = try await loadedPopup(of: page)
            page.close()
            var announced: [Page] = []
            for await event in page.events { if case .popup(let opened) = event { announced.append(opened) } }
            #expect(announced.count == 1 && announced.first === popup)
            // The opener's close leaves the popup (and its shared web process) alive.
            #expect(!popup.isClosed)
            #expect(try await popup.evaluate("document.title") == "Child")
        }
    }

    @Test func targetBlankLinkClickedOpensAPage() async throws {
        let server = try server()
        defer { server.stop() }
        try await Browser.withBrowser { browser in
            let page = try browser.newPage()
            try await page.load(server.url.appendingPathComponent("opener.html"))
            try await page.click(selector: "#link")
            let popup = try await loadedPopup(of: page)
            #expect(try await popup.evaluate("document.querySelector('p').textContent") == "child")
            #expect(page.url?.path == "/opener.html")
        }
    }

    @Test func windowCloseEndsThePopupsPage() async throws {
        let server = try server()
        defer { server.stop() }
        try await Browser.withBrowser { browser in
            let page = try browser.newPage()
            try await page.load(server.url.appendingPathComponent("opener.html"))
            _ = try await page.evaluate("window.w = window.open('/child.html'); 0")
            let byOpener = try await loadedPopup(of: page)
            _ = try await page.evaluate("window.w.close(); 0")
            #expect(await until { byOpener.isClosed })
            var events: [PageEvent] = []
            for await event in byOpener.events { events.append(event) }
            #expect(events.contains { if case .closedByScript = $0 { true } else { false } })

            _ = try await page.evaluate("window.open('/child.html'); 0")
            let bySelf = try await loadedPopup(of: page)
            _ = try await bySelf.evaluate("setTimeout(() => window.close(), 0); 0")
            #expect(await until { bySelf.isClosed })
            #expect(page.openedPages.isEmpty)
            #expect(browser.openPages.count == 1)
            // The opener shared its web process with them: it still runs.
            #expect(!page.isClosed)
            #expect(try await page.evaluate("document.title") == "Opener")
        }
    }

    @Test func aPageNewPageMadeIgnoresItsOwnWindowClose() async throws {
        let server = try server()
        defer { server.stop() }
        try await Browser.withBrowser { browser in
            let page = try browser.newPage()
            try await page.load(server.url.appendingPathComponent("opener.html"))
            _ = try await page.evaluate("window.close(); 0")
            #expect(try await page.evaluate("document.title") == "Opener")
            #expect(!page.isClosed)
        }
    }

    @Test func closingTheBrowserClosesItsPopups() async throws {
        let server = try server()
        defer { server.stop() }
        let popup: Page = try await Browser.withBrowser { browser in
            let page = try browser.newPage()
            try await page.load(server.url.appendingPathComponent("opener.html"))
            _ = try await page.evaluate("window.open('/child.html'); 0")
            return try await loadedPopup(of: page)
        }
        #expect(popup.isClosed)
        await #expect(throws: HeadwayError.self) { try await popup.evaluate("1") }
    }

    @Test func twentyPopupsOpenedAndClosedLeaveOnePage() async throws {
        let server = try server()
        defer { server.stop() }
        try await Browser.withBrowser { browser in
            let page = try browser.newPage()
            try await page.load(server.url.appendingPathComponent("opener.html"))
            for _ in 0..<20 {
                _ = try await page.evaluate("window.w = window.open('/child.html'); 0")
                let popup = try await loadedPopup(of: page)
                _ = try await page.evaluate("window.w.close(); 0")
                #expect(await until { popup.isClosed })
            }
            #expect(page.openedPages.isEmpty)
            #expect(browser.openPages.count == 1)
        }
    }

    @Test func scriptPopupsWithoutAGestureNeedAllowsScriptPopups() async throws {
        let server = try server()
        defer { server.stop() }
        try await Browser.withBrowser { browser in
            let page = try browser.newPage()
            try await page.load(server.url.appendingPathComponent("opener.html"))
            #expect(!page.allowsScriptPopups)
            try await page.load(server.url.appendingPathComponent("auto.html"))
            #expect(try await page.evaluate("window.w === null") == true)
            #expect(page.openedPages.isEmpty)
            page.allowsScriptPopups = true
            try await page.load(server.url.appendingPathComponent("auto.html"))
            #expect(try await page.evaluate("window.w !== null") == true)
            let popup = try await loadedPopup(of: page)
            #expect(popup.allowsScriptPopups)
        }
    }

    @Test func aPopupRunsInitScriptsAndTheRequestFilter() async throws {
        let server = try server()
        defer { server.stop() }
        var configuration = Browser.Configuration()
        configuration.initScripts = ["window.configured = 1"]
        configuration.blockedURLPatterns = ["*/blocked.js"]
        try await Browser.withPage(configuration: configuration) { page in
            try page.addInitScript("window.added = 2")
            try await page.load(server.url.appendingPathComponent("opener.html"))
            _ = try await page.evaluate("window.open('/scripted.html'); 0")
            #expect(await until { page.openedPages.count == 1 })
            let popup = try #require(page.openedPages.first)
            #expect(try await until {
                try await popup.evaluate("document.readyState == 'complete' && document.title") == "Child"
            })
            #expect(try await popup.evaluate("[window.configured, window.added, window.ran === undefined]")
                == [1, 2, true])
        }
    }

    @Test func aBoostedPagesPopupLoads() async throws {
        let server = try server()
        defer { server.stop() }
        var configuration = Browser.Configuration()
        configuration.booster = BoosterConfiguration()
        try await Browser.withPage(configuration: configuration) { page in
            try await page.load(server.url.appendingPathComponent("opener.html"))
            try await page.click(selector: "#link")
            let popup = try await loadedPopup(of: page)
            #expect(popup.url == server.url.appendingPathComponent("child.html"))
            #expect(try await popup.evaluate("document.title") == "Child")
        }
    }
}
