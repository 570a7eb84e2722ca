import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// A snippet drives the page through `headway.click`, `headway.type` and `headway.press`, as a
/// user would; the page's own scripts cannot use that channel.
@Suite("Input: snippet helpers", .serialized)
@EngineActor
struct InputSnippetTests {
    @Test func aSnippetClicksAndTypesAsAUser() async throws {
        try await InputRecorder.withPage { page in
            let result = try await page.run(Snippet(file: "fill.js", source: """
                await headway.click('#field');
                await headway.type('Hi there');
                await headway.press('Enter');
                await headway.click(60, 50);
                document.getElementById('field').value
                """))
            #expect(result.error == nil, "\(String(describing: result.error))")
            #expect(result.value == "Hi there")
            let keys = try await InputRecorder.seen(page, ["keydown"])
            #expect(keys.count == 10 && keys.allSatisfy { $0["trusted"] == true && $0["target"] == "field" })
            let clicks = try await InputRecorder.seen(page, ["click"])
            #expect(clicks.map { $0["target"] } == ["field", "box"] && clicks.allSatisfy { $0["trusted"] == true })
        }
    }

    @Test func aHelpersFailureIsTheSnippetsError() async throws {
        try await InputRecorder.withPage { page in
            let result = try await page.run(Snippet(file: "bad.js", source: "await headway.press('Return')"))
            #expect(result.error?.message.contains("not a key") == true, "\(String(describing: result.error))")
            let plain = try await page.run(Snippet(file: "plain.js", source: "headway.click('#[').catch((e) => 'no')"))
            #expect(plain.value == "no", "\(String(describing: plain.error))")
        }
    }

    @Test func thePagesScriptsGetNothingFromTheChannel() async throws {
        try await InputRecorder.withPage { page in
            // Posting without the run's secret, outside and during a snippet: refused, no input.
            let post = """
                window.webkit.messageHandlers.headwayInput.postMessage(%@)
                  .then(() => 'done', (e) => 'refused: ' + e.message)
                """
            let outside = try await page.callAsyncFunction(
                "return await " + post.replacingOccurrences(of: "%@", with: ##"'x ["click","#field"]'"##))
            #expect(outside.stringValue?.hasPrefix("refused") == true, "\(outside)")
            _ = try await page.evaluate("""
                Array.prototype.toJSON = function () { return ['type', 'evil']; };
                window.probe = () => ({ global: typeof headway, pristine: typeof __headwayPristine.input,
                  attempt: \(post.replacingOccurrences(of: "%@", with: #"'guess ["type","evil"]'"#)) });
                0
                """)
            let result = try await page.run(Snippet(file: "probe.js", source: """
                const seen = probe();
                await headway.press('a');
                ({ global: seen.global, pristine: seen.pristine, attempt: await seen.attempt })
                """))
            #expect(result.value?["global"] == "undefined")
            let attempt = result.value?["attempt"]?.stringValue
            #expect(attempt?.hasPrefix("refused") == true, "\(String(describing: result))")
            let keys = try await InputRecorder.seen(page, ["keydown", "click"])
            #expect(keys.map { $0["key"] } == ["a"], "only the snippet's own key: \(keys)")
        }
    }

    @Test func aSnippetWithoutHelpersKeepsItsGlobals() async throws {
        try await InputRecorder.withPage { page in
            _ = try await page.run(Snippet(file: "a.js", source: "var kept = 41"))
            let result = try await page.run(Snippet(file: "b.js", source: "kept + 1"))
            #expect(result.value == 42)
        }
    }
}
