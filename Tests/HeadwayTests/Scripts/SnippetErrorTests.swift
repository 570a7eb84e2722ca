import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// A snippet's errors point into the snippet itself: syntax errors, and errors thrown after a
/// top-level `await` (which runs the snippet inside a wrapper).
@Suite("Snippet error locations", .serialized)
@EngineActor
struct SnippetErrorTests {
    @Test func aSyntaxErrorNamesTheSnippetFileAndLine() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("page.html"))
            let plain = try await page.run(
                Snippet(file: "bad.js", source: "const a = 1;\nconst b = 2;\nconst c = = 3;\n")
            )
            #expect(plain.error?.file == "bad.js")
            #expect(plain.error?.line == 3, "\(String(describing: plain.error))")
            #expect(plain.error?.message == "SyntaxError: Unexpected token '='")
            let awaiting = try await page.run(
                Snippet(file: "bad-await.js", source: "await null;\nconst b = 2;\nconst c = = 3;\n")
            )
            #expect(awaiting.error?.file == "bad-await.js")
            #expect(awaiting.error?.line == 3, "\(String(describing: awaiting.error))")
            let first = try await page.run(Snippet(file: "first.js", source: "let x = ) 1;"))
            #expect(first.error?.line == 1, "\(String(describing: first.error))")
            // The snippet never ran: a syntax error's reparse runs nothing.
            #expect(try await page.evaluate("typeof a") == .string("undefined"))
        }
    }

    @Test func errorsAfterTopLevelAwaitHaveTheSnippetsLineAndColumn() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("page.html"))
            let body = "const a = 1;\nconst b = 2;\n    null.boom;\n"
            let plain = try await page.run(Snippet(file: "plain.js", source: "void 0;\n" + body))
            let awaited = try await page.run(Snippet(file: "await.js", source: "await null;\n" + body))
            #expect(plain.error?.line == 4)
            #expect(awaited.error?.file == "await.js")
            #expect(awaited.error?.line == 4, "\(String(describing: awaited.error))")
            #expect(
                awaited.error?.column == plain.error?.column,
                "\(String(describing: awaited.error)) vs \(String(describing: plain.error))"
            )
            #expect(awaited.error?.column == 9)
            // The last line becomes the wrapper's return value: its column still maps back.
            let tail = "const a = 1;\nconst b = 2;\n    a.b.c"
            let last = try await page.run(Snippet(file: "last.js", source: "await null;\n" + tail))
            let lastPlain = try await page.run(Snippet(file: "last-plain.js", source: "void 0;\n" + tail))
            #expect(last.error?.line == 4, "\(String(describing: last.error))")
            #expect(
                last.error?.column == lastPlain.error?.column,
                "\(String(describing: last.error)) vs \(String(describing: lastPlain.error))"
            )
            // On the first line, after the wrapper's opening: the `.` of `null.boom` is column 17.
            let first = try await page.run(Snippet(file: "one.js", source: "await null; null.boom"))
            #expect(first.error?.line == 1)
            #expect(first.error?.column == 17, "\(String(describing: first.error))")
        }
    }
}
