import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// Decodable script values and typed timing metrics, against a real page.
@Suite("Typed results", .serialized)
struct TypedResultTests {
    struct Link: Decodable, Equatable {
        var path: String
        var text: String
    }

    @Test func aScriptsValueDecodesAsTheCallersType() async throws {
        let server = try await Fixtures.server()
        let url = await server.url.appendingPathComponent("page.html")
        try await Browser.withPage { page in
            try await page.load(url)
            #expect(try await page.evaluate("1 + 2", as: Int.self) == 3)
            #expect(try await page.evaluate("document.title", as: String.self) == Fixtures.pageTitle)
            let value = try await page.evaluate("({path: location.pathname, text: document.title})")
            #expect(try value.decode(as: Link.self) == Link(path: "/page.html", text: Fixtures.pageTitle))
            let error = await #expect(throws: HeadwayError.self) { try await page.evaluate("'x'", as: Int.self) }
            #expect(error?.code == .scriptError)
            #expect(error?.message.contains("Int") == true)
            let thrown = await #expect(throws: HeadwayError.self) {
                try await page.evaluate("throw new TypeError('no such widget')")
            }
            #expect(thrown?.code == .scriptError)
            #expect(
                thrown?.message.contains("no such widget") == true,
                "the message carries what JavaScript said: \(thrown?.message ?? "")"
            )
        }
        await server.stop()
    }

    @Test func functionArgumentsTakeAnyJSONValue() async throws {
        let server = try await Fixtures.server()
        let url = await server.url.appendingPathComponent("page.html")
        try await Browser.withPage { page in
            try await page.load(url)
            let arguments: [String: JSONValue] = ["text": "a", "n": 2, "x": 1.5, "flag": true, "none": nil,
                                                  "list": [1, "two", [3]], "object": ["k": ["nested": false]]]
            let echoed = try await page.callAsyncFunction(
                "return {text, n, x, flag, none, list, object, types: [typeof n, typeof flag, Array.isArray(list)]}",
                arguments: arguments)
            #expect(echoed == .object(["text": "a", "n": 2, "x": 1.5, "flag": true, "none": .null,
                                       "list": [1, "two", [3]], "object": ["k": ["nested": false]],
                                       "types": ["number", "boolean", true]]))
            // The body's own line numbers are kept: the prelude shares its first line.
            let error = await #expect(throws: HeadwayError.self) {
                try await page.callAsyncFunction("const y = n;\nthrow new Error('line two')", arguments: ["n": 1])
            }
            #expect(error?.message.contains("line two") == true)
            let bad = await #expect(throws: HeadwayError.self) {
                try await page.callAsyncFunction("return 1", arguments: ["not an identifier": 1])
            }
            #expect(bad?.code == .invalidArgument)
        }
        await server.stop()
    }

    @Test func timingIsReadByTypedMetric() async throws {
        let server = try await Fixtures.server()
        let url = await server.url.appendingPathComponent("page.html")
        try await Browser.withBrowser { browser in
            let result = try await browser.newPage().load(url)
            #expect(result.timing[.loadEventEnd] == result.timing.loadEventEnd)
            #expect(result.timing[TimingMetric(rawValue: "noSuchMetric")] == nil)
            let (summary, results) = try await browser.measure(url, runs: 2)
            #expect(summary[.loadEventEnd] == summary["loadEventEnd"])
            #expect(summary[.loadEventEnd]?.max == results.map(\.timing.loadEventEnd).max())
        }
        await server.stop()
    }

    @Test func resultsCanBeMadeByHandForClientTests() throws {
        let url = URL(string: "http://example.test/")!
        let timing = Timing(
            started: .milliseconds(1),
            committed: .milliseconds(2),
            finished: .milliseconds(30),
            responseStart: 3,
            domInteractive: 10,
            domContentLoadedEventEnd: 12,
            loadEventEnd: 25
        )
        let result = LoadResult(url: url, finalURL: url, status: 200, title: "Made", timing: timing)
        #expect(result.timing[.loadEventEnd] == 25)
        #expect(result.timing[.firstContentfulPaint] == nil)
        let summary = TimingSummary(url: url, results: [result, result])
        #expect(summary[.loadEventEnd]?.median == 25)
        let snippet = SnippetResult(file: "a.js", error: ScriptError(message: "boom", file: "a.js", line: 3, column: 1))
        #expect(!snippet.succeeded)
        #expect(snippet.error?.description == "a.js:3:1: boom")
    }
}
