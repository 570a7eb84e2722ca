import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// A press on a `<select>` opens its popup menu in WebKit; Headway takes the menu (no GTK popup
/// grabs an offscreen window's keyboard) and closes it, so later keys still arrive.
@Suite("Input: select popups", .serialized)
@EngineActor
struct InputSelectTests {
    static let select = """
        <!doctype html><title>Select</title>
        <select id=choice style="position: absolute; left: 20px; top: 20px; width: 150px">
        <option>apple<option>banana<option>cherry</select>
        """

    @Test func aPressHeldOnASelectLeavesLaterKeysWorking() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/select.html", .html(Self.select))
        server.route("/input.html", .html(InputRecorder.page))
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("select.html"))
            try await page.mouseMove(x: 60, y: 30)
            try await page.mouseDown(button: .left)
            #expect(try await page.evaluate("document.activeElement.id") == "choice")
            try await page.mouseUp(button: .left)
            // The popup closed without a choice: the value is as it was.
            #expect(try await page.evaluate("choice.value") == "apple")
            // Keys change a focused select as on a closed one.
            try await page.press("ArrowDown")
            #expect(try await page.evaluate("choice.value") == "banana")
            try await page.load(server.url.appendingPathComponent("input.html"))
            try await page.click(selector: "#field")
            try await page.type("Hello World")
            #expect(try await page.evaluate("field.value") == "Hello World")
            let downs = try await InputRecorder.seen(page, ["keydown"])
            #expect(downs.filter { $0["key"] == "Shift" }.count == 2)
        }
    }
}
