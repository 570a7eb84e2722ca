import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// JavaScript dialogs never block: each is answered at once by the page's dialog policy and
/// recorded with its answer.
@Suite("JavaScript dialogs", .serialized)
@EngineActor
struct DialogTests {
    @Test func dialogsDuringALoadAreDismissedByDefault() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        try await Browser.withPage { page in
            let result = try await page.load(server.url.appendingPathComponent("dialogs.html"), timeout: .seconds(10))
            #expect(result.dialogs == [
                JavaScriptDialog(type: .confirm, message: "Sure?", answer: false),
                JavaScriptDialog(type: .prompt, message: "Name?", defaultText: "anonymous", answer: .null),
                JavaScriptDialog(type: .alert, message: "Hello from the page", answer: .null),
            ])
            #expect(try await page.evaluate("window.answers") == .object(["confirm": false, "prompt": .null]))
        }
    }

    @Test func theAcceptPolicyConfirmsAndTakesThePromptsDefault() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        var configuration = Browser.Configuration()
        configuration.dialogs = .accept
        try await Browser.withPage(configuration: configuration) { page in
            let result = try await page.load(server.url.appendingPathComponent("dialogs.html"), timeout: .seconds(10))
            #expect(result.dialogs.map(\.answer) == [true, "anonymous", .null])
            #expect(try await page.evaluate("window.answers") == .object(["confirm": true, "prompt": "anonymous"]))
            // Each page can change its own policy.
            page.dialogPolicy = .dismiss
            #expect(try await page.evaluate("confirm('again?')") == false)
        }
    }

    @Test func dialogsFromASnippetAreAnsweredAndRecorded() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("page.html"))
            let result = try await page.run(
                Snippet(file: "ask.js", source: "alert('one'); [confirm('two'), prompt('three', 'x')]"),
                timeout: .seconds(10)
            )
            #expect(result.error == nil)
            #expect(result.value == .array([false, .null]))
            #expect(page.dialogs.map(\.type) == [.alert, .confirm, .prompt])
            var kinds: [JavaScriptDialog.Kind] = []
            page.close()
            for await event in page.events {
                if case .dialog(let dialog) = event { kinds.append(dialog.type) }
            }
            #expect(kinds == [.alert, .confirm, .prompt])
        }
    }

    @Test func aBeforeUnloadHandlerNeverKeepsThePage() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/sticky.html", .html("""
            <!doctype html><title>Sticky</title><script>
            addEventListener('beforeunload', (e) => { e.preventDefault(); e.returnValue = 'Stay?'; });
            </script>
            """))
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("sticky.html"))
            let next = try await page.load(server.url.appendingPathComponent("second.html"), timeout: .seconds(10))
            #expect(next.title == "Second")
            // WebKit asks only after a user gesture; when it does, the answer is to leave.
            #expect(next.dialogs.allSatisfy { $0.type == .beforeUnload && $0.answer == true })
        }
    }
}
