import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// JavaScript strings may hold lone UTF-16 surrogates; they come back as U+FFFD, never as a
/// failed result.
@Suite("Lone surrogates", .serialized)
@EngineActor
struct LoneSurrogateTests {
    @Test func inJSONTextTheyBecomeReplacementCharacters() throws {
        #expect(try JSONValue(json: #""\ud800""#) == .string("\u{FFFD}"))
        #expect(try JSONValue(json: #""\uDC00x""#) == .string("\u{FFFD}x"))
        #expect(try JSONValue(json: #"["\ud83d", "\ud83d\ude00", "\ud83d\ud83d\ude00"]"#)
                == .array(["\u{FFFD}", "😀", "\u{FFFD}😀"]))
        // An escaped backslash followed by text is not an escape.
        #expect(try JSONValue(json: #""\\ud800""#) == .string(#"\ud800"#))
        #expect(try JSONValue(json: #"{"\udfff": "\u0041"}"#) == .object(["\u{FFFD}": "A"]))
    }

    @Test func fromThePageTheyNeverBreakAResult() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/surrogates.html", .html("""
            <!doctype html><title>t</title><script>document.title = '\\uDC00x'; console.log('\\uD83D');
            console.warn('ok \\uD83D\\uDE00');</script><p>text</p>
            """))
        try await Browser.withPage { page in
            let result = try await page.load(server.url.appendingPathComponent("surrogates.html"))
            #expect(result.title == "\u{FFFD}x")
            #expect(result.timing.loadEventEnd > 0, "the timing probe's answer was read")
            #expect(page.console.map { [$0.level, $0.text] } == [["log", "\u{FFFD}"], ["warn", "ok 😀"]])
            let snippet = try await page.run(Snippet(file: "lone.js", source: "'\\uD800'"))
            #expect(snippet.error == nil)
            #expect(snippet.value == .string("\u{FFFD}"))
            #expect(
                try await page.evaluate("({'\\uDBFF': ['\\uDFFF']})") == .object(["\u{FFFD}": .array(["\u{FFFD}"])])
            )
        }
    }
}
