import Foundation
import Headway
import Testing

/// A page opening windows without end gets `Browser.maxOpenPopups` of them, then `null` from
/// `window.open`, with a note in its console; the browser goes on working.
@Suite("Popups: cap", .serialized)
@EngineActor
struct PopupCapTests {
    @Test func aPageOpening200WindowsGetsAtMostTheCap() async throws {
        let server = try HTTPServer()
        defer { server.stop() }
        server.route("/opener.html", .html("<title>Opener</title>"))
        server.route("/other.html", .html("<title>Other</title>"))
        try await Browser.withBrowser { browser in
            let page = try browser.newPage()
            try await page.load(server.url.appendingPathComponent("opener.html"))
            let script = """
                let opened = 0, refused = 0;
                for (let i = 0; i < 200; i++) { if (window.open('about:blank')) opened++; else refused++; }
                [opened, refused]
                """
            let counts: JSONValue = try await page.evaluate(script)
            let cap = Browser.maxOpenPopups
            #expect(counts == [.number(Double(cap)), .number(Double(200 - cap))])
            #expect(page.openedPages.count == cap)
            #expect(browser.openPages.count == cap + 1)
            let notes = page.console.filter { $0.level == "warn" && $0.text.contains("\(cap)") }
            #expect(notes.count == 1, "\(page.console)")
            // Closing one makes room for one more; the browser still loads pages.
            page.openedPages.first?.close()
            #expect(try await page.evaluate("window.open('about:blank') !== null") == true)
            #expect(try await page.evaluate("window.open('about:blank') !== null") == false)
            let other = try browser.newPage()
            try await other.load(server.url.appendingPathComponent("other.html"))
            #expect(try await other.evaluate("document.title") == "Other")
        }
    }
}
