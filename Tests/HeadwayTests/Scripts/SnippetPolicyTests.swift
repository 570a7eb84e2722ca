import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// Snippets on a page whose Content-Security-Policy forbids eval: without `await` they run in
/// the page's own world (its globals, their completion value); with `await` in an isolated
/// world, which the policy does not bind (the page's DOM, not its globals).
@Suite("Snippets under a strict Content-Security-Policy", .serialized)
@EngineActor
struct SnippetPolicyTests {
    static func server() throws -> HTTPServer {
        let server = try Fixtures.server()
        server.route(
            "/strict.html",
            HTTPResponse(
                headers: [("Content-Type", "text/html"), ("Content-Security-Policy", "default-src 'self'")],
                body: Data("<!doctype html><title>Strict</title><script src='/global.js'></script>".utf8)
            )
        )
        server.route(
            "/global.js",
            HTTPResponse(headers: [("Content-Type", "text/javascript")], body: Data("window.answer = 42".utf8))
        )
        return server
    }

    @Test(arguments: [false, true])
    func snippetsRunOnAPageThatForbidsEval(booster: Bool) async throws {
        let server = try Self.server()
        defer { server.stop() }
        try await Browser.withPage(configuration: booster ? BoosterSite.configuration() : Browser.Configuration()) {
            page in
            try await page.load(server.url.appendingPathComponent("strict.html"))
            let refused = try await page.evaluate(
                "(() => { try { eval('1'); return 'allowed' } catch (e) { return e.name } })()",
                as: String.self
            )
            #expect(refused == "EvalError")
            let plain = try await page.run(Snippet(file: "plain.js", source: "document.title + ' ' + window.answer"))
            #expect(plain.value == .string("Strict 42"), "\(String(describing: plain.error))")
            let awaiting = try await page.run(
                Snippet(
                    file: "awaiting.js",
                    source: """
                        await new Promise(done => setTimeout(done, 10));
                        [document.title, typeof window.answer]
                        """
                )
            )
            #expect(
                awaiting.value == .array([.string("Strict"), .string("undefined")]),
                "\(String(describing: awaiting.error))"
            )
            let thrown = try await page.run(Snippet(file: "thrown.js", source: "await 0;\nthrow new Error('stop')"))
            #expect(thrown.error?.message == "Error: stop", "\(String(describing: thrown.error))")
            #expect(thrown.error?.line == 2, "\(String(describing: thrown.error))")
        }
    }
}
