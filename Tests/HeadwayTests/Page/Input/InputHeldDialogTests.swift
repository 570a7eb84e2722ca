import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// Input whose handler opens a dialog held open (`holdsDialogs`): the page waits in the dialog,
/// so the input call returns once the dialog is open instead of waiting for the page.
@Suite("Input: a held dialog", .serialized)
@EngineActor
struct InputHeldDialogTests {
    private static let page = """
        <!doctype html><title>dialogs</title>
        <button id="alert" onclick="window.said = alert('hi')">alert</button>
        <button id="confirm" onmousedown="window.said = confirm('sure?')">confirm</button>
        <input id="field" onkeydown="if (event.key === 'p') window.said = prompt('name?', 'x')">
        """

    private func withPage(_ body: @EngineActor (Page) async throws -> Void) async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/dialogs.html", .html(Self.page))
        try await Browser.withPage { page in
            page.holdsDialogs = true
            try await page.load(server.url.appendingPathComponent("dialogs.html"))
            try await body(page)
        }
    }

    @Test func aClickThatOpensAnAlertReturnsWithTheAlertOpen() async throws {
        try await withPage { page in
            try await page.click(selector: "#alert")
            #expect(page.openDialog?.type == .alert)
            #expect(page.openDialog?.message == "hi")
            try page.closeDialog(accept: true)
            // The handler ran on once the alert was closed.
            #expect(try await page.evaluate("'said' in window") == true)
            // The page takes input again once the dialog is closed.
            try await page.click(selector: "#field")
            try await page.type("ok")
            #expect(try await page.evaluate("document.getElementById('field').value") == "ok")
        }
    }

    @Test func aMouseDownOrAKeyThatOpensADialogReturnsWithItOpen() async throws {
        try await withPage { page in
            let box = try await page.evaluate(
                "const r = document.getElementById('confirm').getBoundingClientRect(); [r.x + 5, r.y + 5]")
            try await page.mouseMove(x: box[0]?.doubleValue ?? 0, y: box[1]?.doubleValue ?? 0)
            try await page.mouseDown()
            #expect(page.openDialog?.message == "sure?")
            try page.closeDialog(accept: true)
            try await page.mouseUp()
            #expect(try await page.evaluate("window.said") == true)
            try await page.click(selector: "#field")
            try await page.press("p")
            #expect(page.openDialog?.type == .prompt)
            try page.closeDialog(accept: true, text: "Ada")
            #expect(try await page.evaluate("window.said") == "Ada")
        }
    }
}
