import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// Console messages and errors are kept up to a cap, and the result says how many there were.
@Suite("Capped console and error lists", .serialized)
@EngineActor
struct CappedListTests {
    static let noisy = """
        <!doctype html><html><head><title>Noisy</title></head><body><script>
        for (let i = 0; i < 10050; i++) console.log('line ' + i);
        for (let i = 0; i < 3; i++) setTimeout(() => { throw new Error('late ' + i); }, 0);
        </script></body></html>
        """

    @Test func theTotalsCountWhatTheCapLeftOut() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/noisy.html", .html(Self.noisy))
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("noisy.html"))
            _ = try await page.run(Snippet(file: "settle.js", source: "new Promise(r => setTimeout(r, 50))"))
            #expect(page.console.count == Page.keptEntries)
            #expect(page.consoleTotal == 10_050)
            #expect(page.console.last?.text == "line 9999")
            #expect(page.errors.count == 3)
            #expect(page.errorsTotal == 3)
            try await page.load(server.url.appendingPathComponent("second.html"))
            #expect(page.consoleTotal == 0)
        }
    }
}
