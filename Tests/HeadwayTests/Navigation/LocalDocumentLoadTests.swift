import Foundation
import Headway
import HeadwayTestSupport
import Testing

// Documents that come from no server: a data: URL has Navigation Timing but cannot be a base
// URL (so no default icon), and about:blank has no navigation entry at all.
@Suite("Loads of local documents", .serialized)
@EngineActor
struct LocalDocumentLoadTests {
    @Test func aDataURLLoadReportsItsNavigationTiming() async throws {
        try await Browser.withPage { page in
            let result = try await page.load(URL(string: "data:text/html,<title>Data</title><p>inline")!)
            #expect(result.title == "Data")
            #expect(result.timing.domContentLoadedEventEnd > 0)
            #expect(result.timing.loadEventEnd > 0)
        }
    }

    @Test func aLoadOfAboutBlankThenOfAPageBothReturn() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/after.html", .html("<!doctype html><title>After</title><p>after blank"))
        try await Browser.withPage { page in
            let blank = try await page.load(URL(string: "about:blank")!)
            #expect(blank.finalURL.absoluteString == "about:blank")
            #expect(blank.timing.loadEventEnd == 0, "about:blank has no navigation entry")
            let after = try await page.load(server.url.appendingPathComponent("after.html"))
            #expect(after.title == "After")
        }
    }
}
