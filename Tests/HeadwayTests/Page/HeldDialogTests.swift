import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// With `holdsDialogs`, alert, confirm and prompt stay open until the client answers them, as
/// WebDriver's user prompts need; the page's script gets the client's answer.
@Suite("Held dialogs", .serialized)
@EngineActor
struct HeldDialogTests {
    // Opens `call` from a task of the page, so that the evaluate opening it returns at once,
    // and keeps what it returned in `window.result`.
    private func open(_ call: String, on page: Page) async throws {
        _ = try await page.evaluate("setTimeout(() => { window.result = \(call); }, 0); 0")
    }

    @Test func confirmIsHeldUntilAnsweredAndGetsTheAnswer() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        try await Browser.withPage { page in
            page.holdsDialogs = true
            try await page.load(server.url.appendingPathComponent("page.html"))
            #expect(page.openDialog == nil)
            try await open("confirm('Sure?')", on: page)
            let dialog = await page.dialogOpened(timeout: .seconds(10))
            #expect(dialog == JavaScriptDialog(type: .confirm, message: "Sure?", answer: .undefined))
            #expect(page.openDialog == dialog)
            try page.closeDialog(accept: true)
            #expect(page.openDialog == nil)
            #expect(try await page.evaluate("window.result") == true)
            try await open("confirm('Again?')", on: page)
            #expect(await page.dialogOpened(timeout: .seconds(10))?.message == "Again?")
            try page.closeDialog(accept: false)
            #expect(try await page.evaluate("window.result") == false)
            #expect(page.dialogs.map(\.answer) == [true, false])
        }
    }

    @Test func promptGetsTheTextOrNull() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        try await Browser.withPage { page in
            page.holdsDialogs = true
            try await page.load(server.url.appendingPathComponent("page.html"))
            try await open("prompt('Name?', 'anonymous')", on: page)
            let dialog = await page.dialogOpened(timeout: .seconds(10))
            #expect(dialog?.type == .prompt)
            #expect(dialog?.defaultText == "anonymous")
            try page.closeDialog(accept: true, text: "Ada")
            #expect(try await page.evaluate("window.result") == "Ada")
            try await open("prompt('Name?', 'anonymous')", on: page)
            _ = await page.dialogOpened(timeout: .seconds(10))
            try page.closeDialog(accept: false, text: "ignored")
            #expect(try await page.evaluate("window.result") == .null)
        }
    }

    @Test func anEvaluateThatOpensAnAlertReturnsOnceItIsClosed() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        try await Browser.withPage { page in
            page.holdsDialogs = true
            try await page.load(server.url.appendingPathComponent("page.html"))
            async let value = page.evaluate("alert('Hello'); 'after'", timeout: .seconds(20))
            let dialog = await page.dialogOpened(timeout: .seconds(10))
            #expect(dialog?.type == .alert)
            #expect(dialog?.message == "Hello")
            try page.closeDialog(accept: true)
            #expect(try await value == "after")
            #expect(page.dialogs == [JavaScriptDialog(type: .alert, message: "Hello", answer: .null)])
        }
    }

    @Test func aScriptWaitingForAHeldDialogTimesOutWithoutLosingThePage() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        try await Browser.withPage { page in
            page.holdsDialogs = true
            try await page.load(server.url.appendingPathComponent("page.html"))
            try await open("confirm('Wait?')", on: page)
            _ = await page.dialogOpened(timeout: .seconds(10))
            let error = await #expect(throws: HeadwayError.self) {
                try await page.evaluate("1", timeout: .milliseconds(300))
            }
            #expect(error?.message.contains("a JavaScript dialog is open") == true)
            #expect(page.openDialog?.message == "Wait?")
            try page.closeDialog(accept: true)
            // The same web process answers: the page was not taken for stuck.
            #expect(try await page.evaluate("window.result") == true)
        }
    }

    @Test func closingWithoutAnOpenDialogThrows() async throws {
        try await Browser.withPage { page in
            #expect(throws: HeadwayError.self) { try page.closeDialog(accept: true) }
            #expect(await page.dialogOpened(timeout: .milliseconds(50)) == nil)
        }
    }

    @Test func closingThePageReleasesAHeldDialog() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        try await Browser.withBrowser { browser in
            let page = try browser.newPage()
            page.holdsDialogs = true
            try await page.load(server.url.appendingPathComponent("page.html"))
            try await open("alert('Left open')", on: page)
            #expect(await page.dialogOpened(timeout: .seconds(10))?.message == "Left open")
            page.close()
            #expect(page.openDialog == nil)
            #expect(throws: HeadwayError.self) { try page.closeDialog(accept: true) }
            // The browser goes on.
            let next = try browser.newPage()
            try await next.load(server.url.appendingPathComponent("second.html"))
            #expect(try await next.evaluate("1 + 1") == 2)
        }
    }

    @Test func withoutHoldingDialogsArePolicyAnswered() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("page.html"))
            #expect(try await page.evaluate("confirm('Sure?')") == false)
            #expect(page.openDialog == nil)
        }
    }
}
