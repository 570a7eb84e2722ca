import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// WebKit dispatches a press's pointerdown and mousedown in two tasks, and a script can run
/// between them: an input call returns once the page's mouse listeners have run, or, when the
/// page cancelled the pointerdown (so no mouse event comes), once its pointer listeners have.
/// A mouse listener's dialog, held open, is then open when the call returns.
@Suite("Input: pointer events, then mouse events", .serialized)
@EngineActor
struct InputMouseEventTests {
    private static let page = """
        <!doctype html><title>order</title>
        <script>window.log = [];</script>
        <button id="b" onpointerdown="log.push('pointerdown')" onmousedown="log.push('mousedown')"
          onpointerup="log.push('pointerup')" onmouseup="log.push('mouseup')">b</button>
        <button id="confirm" onmousedown="log.push(confirm('sure?'))">confirm</button>
        <button id="cancel" onpointerdown="event.preventDefault(); log.push('pointerdown')"
          onmousedown="log.push('mousedown')" onpointerup="log.push('pointerup')"
          onmouseup="log.push('mouseup')">cancel</button>
        """

    private func withPage(_ body: @EngineActor (Page, URL) async throws -> Void) async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/order.html", .html(Self.page))
        try await Browser.withPage { page in
            page.holdsDialogs = true
            let url = server.url.appendingPathComponent("order.html")
            try await page.load(url)
            try await body(page, url)
        }
    }

    private func press(_ id: String, on page: Page) async throws -> [String] {
        let box = try await page.evaluate(
            "{ const r = document.getElementById('\(id)').getBoundingClientRect(); [r.x + 5, r.y + 5] }")
        try await page.mouseMove(x: box[0]?.doubleValue ?? 0, y: box[1]?.doubleValue ?? 0)
        _ = try await page.evaluate("log.length = 0")
        try await page.mouseDown()
        let afterDown = try await page.evaluate("log.join(' ')")
        try await page.mouseUp()
        let afterUp = try await page.evaluate("log.join(' ')")
        return [afterDown.stringValue ?? "", afterUp.stringValue ?? ""]
    }

    @Test func aPressReturnsOnceTheMouseListenersRan() async throws {
        try await withPage { page, _ in
            let seen = try await press("b", on: page)
            #expect(seen == ["pointerdown mousedown", "pointerdown mousedown pointerup mouseup"])
        }
    }

    // Before the fix the pointerdown alone ended the wait, and the dialog was not open yet after
    // about 1 first press in 6 (later presses on the same document were not affected).
    @Test func aDialogFromAMousedownIsOpenWhenThePressReturns() async throws {
        try await withPage { page, url in
            for press in 1...10 {
                if press > 1 { try await page.load(url) }
                let box = try await page.evaluate(
                    "{ const r = document.getElementById('confirm').getBoundingClientRect(); [r.x + 5, r.y + 5] }")
                try await page.mouseMove(x: box[0]?.doubleValue ?? 0, y: (box[1]?.doubleValue ?? 0) + Double(press))
                try await page.mouseDown()
                #expect(page.openDialog?.message == "sure?", "press \(press)")
                // Bounded, so that a failure here does not leave the page waiting in the dialog.
                if await page.dialogOpened(timeout: .seconds(5)) != nil { try page.closeDialog(accept: true) }
                try await page.mouseUp()
                #expect(try await page.evaluate("log.join(' ')") == "true", "press \(press)")
            }
        }
    }

    @Test func aCancelledPointerdownEndsTheWaitWithoutMouseEvents() async throws {
        try await withPage { page, _ in
            let seen = try await press("cancel", on: page)
            #expect(seen == ["pointerdown", "pointerdown pointerup"])
        }
    }
}
