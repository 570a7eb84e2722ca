import Foundation
import Headway
import HeadwayTestSupport
import Testing

@Suite("JavaScript and snippets", .serialized)
@EngineActor
struct JavaScriptTests {
    @Test func evaluateReturnsValuesIncludingUndefinedAndNull() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("page.html"))
            #expect(try await page.evaluate("document.title") == .string(Fixtures.pageTitle))
            #expect(try await page.evaluate("undefined") == .undefined)
            #expect(try await page.evaluate("void 0") == .undefined)
            #expect(try await page.evaluate("console.log('x')") == .undefined)
            #expect(try await page.evaluate("null") == .null)
            #expect(try await page.evaluate("1 + 1") == .number(2))
            #expect(try await page.evaluate("({a: [1, 'b', true]})") == .object(["a": .array([1, "b", true])]))
            let error = await #expect(throws: HeadwayError.self) { try await page.evaluate("nope.nope") }
            #expect(error?.gerror?.message.contains("nope") == true)
        }
    }

    @Test func consoleMethodsBeyondLogReportTheirMethodLevelAndArguments() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/console.html", .html("""
            <script>
            console.assert(false, 'why', 2); console.assert(true, 'not shown'); console.count(); console.count();
            console.table([1]); console.trace('t'); console.time('x'); console.timeEnd('x'); console.timeEnd('x');
            console.log(-0, NaN, 10n, undefined, null, /a/g, new Date(0), new WeakMap(), window); console.log();
            </script>
            """))
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("console.html"))
            let seen = page.console
            #expect(seen.map(\.method) == ["assert", "count", "count", "table", "trace", "timeEnd", "log", "log"])
            #expect(seen.map(\.level) == ["error", "log", "log", "log", "debug", "log", "log", "log"])
            #expect(seen[7].arguments.isEmpty && seen[7].text.isEmpty)
            #expect(Array(seen.map(\.text).prefix(5)) == ["why 2", "default: 1", "default: 2", "[1]", "t"])
            #expect(seen[5].text.hasPrefix("x: ") && seen[5].text.hasSuffix(" ms"), "\(seen[5].text)")
            #expect(seen[0].arguments == [["type": "string", "value": "why"], ["type": "number", "value": 2]])
            #expect(seen[6].arguments == [
                ["type": "number", "value": "-0"], ["type": "number", "value": "NaN"],
                ["type": "bigint", "value": "10"],
                ["type": "undefined"], ["type": "null"], ["type": "regexp", "value": ["pattern": "a", "flags": "g"]],
                ["type": "date", "value": "1970-01-01T00:00:00.000Z"], ["type": "weakmap"], ["type": "window"],
            ])
        }
    }

    @Test func asyncFunctionAwaitsThePromise() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("page.html"))
            let status = try await page.callAsyncFunction("return (await fetch(path)).status",
                                                          arguments: ["path": "/missing"])
            #expect(status == .number(404))
            #expect(try await page.callAsyncFunction("await null") == .undefined)
        }
    }

    @Test func snippetsGiveCompletionValuesPromisesAndTopLevelAwait() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("page.html"))
            let cases: [(String, JSONValue)] = [
                ("document.title", .string(Fixtures.pageTitle)),
                ("let a = 2; a * 21", .number(42)),
                ("Promise.resolve({ok: true})", .object(["ok": true])),
                ("await new Promise(r => setTimeout(r, 20)); document.title + '!'", .string(Fixtures.pageTitle + "!")),
                ("const r = await fetch('/second.html');\nr.status", .number(200)),
                ("void 0", .undefined),
                ("null", .null),
            ]
            for (source, expected) in cases {
                let result = try await page.run(Snippet(file: "case.js", source: source))
                #expect(result.error == nil, "\(source)")
                #expect(result.value == expected, "\(source)")
            }
        }
    }

    @Test func thrownExceptionsCarryMessageFileAndLine() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("page.html"))
            let thrown = try await page.run(Snippet(file: "bad.js", source: "const x = 1;\nthrow new RangeError('too "
                + "far');"))
            #expect(thrown.error?.message == "RangeError: too far")
            #expect(thrown.error?.file == "bad.js")
            #expect(thrown.error?.line == 2)
            let rejected = try await page.run(Snippet(file: "reject.js", source: "Promise.reject(new Error('no'))"))
            #expect(rejected.error?.message == "Error: no")
            let syntax = try await page.run(Snippet(file: "syntax.js", source: "this is not javascript"))
            #expect(syntax.error?.message.hasPrefix("SyntaxError") == true)
        }
    }

    @Test func aSnippetThatNeverSettlesIsStopped() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("page.html"))
            let result = try await page.run(Snippet(file: "hang.js", source: "new Promise(() => {})"),
                                            timeout: .seconds(0.5))
            #expect(result.error?.message.contains("did not settle") == true)
            // The page still answers afterwards.
            #expect(try await page.evaluate("1") == .number(1))
        }
    }

    @Test func consoleAndUncaughtErrorsAreCaptured() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("page.html"))
            #expect(page.console.contains { $0.level == "log" && $0.text == "fixture says 42" })
            #expect(page.console.contains { $0.level == "warn" && $0.text == "careful" })
            try await page.load(server.url.appendingPathComponent("throws.html"))
            _ = try await page.run(Snippet(file: "wait.js", source: "new Promise(r => setTimeout(r, 100))"))
            #expect(page.console.isEmpty)
            #expect(page.errors.contains { $0.message.contains("page blew up") && $0.line == 2 })
            #expect(page.errors.contains {
                $0.message.contains("Unhandled rejection") && $0.message.contains("nobody caught me")
            })
        }
    }

    @Test func aSnippetThatNavigatesIsWaitedFor() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("page.html"))
            let result = try await page.run(Snippet(file: "nav.js", source: "location.href = '/second.html'; 'bye'"))
            #expect(result.value == .string("bye"))
            #expect(result.navigatedTo?.path == "/second.html")
            let title = try await page.run(Snippet(file: "title.js", source: "document.title"))
            #expect(title.value == .string("Second"))
            let click = try await page.run(Snippet(file: "click.js", source: "history.back()"))
            #expect(click.error == nil)
            #expect(click.navigatedTo?.path == "/page.html")
            #expect(page.url?.path == "/page.html")
        }
    }
}
