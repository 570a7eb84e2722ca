import Foundation
import Headway
import Testing

/// Page-load timing inside a test: the page is served by Headway's HTTPServer from a temporary
/// folder, and the assertions are about what loaded, not about how fast this machine is.
@Suite struct TimingTests {
    @Test func theHomePageLoadsAndIsMeasured() async throws {
        let site = FileManager.default.temporaryDirectory.appendingPathComponent("timing-tests-\(getpid())")
        try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: site) }
        try "<!doctype html><title>Home</title>".write(to: site.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
        let server = try await HTTPServer(root: site)
        let url = await server.url.appendingPathComponent("index.html")

        try await Browser.withBrowser { browser in
            let result = try await browser.newPage().load(url)
            #expect(result.status == 200)
            #expect(result.timing.loadEventEnd >= result.timing.domContentLoadedEventEnd)
            // Five cold loads, each in a fresh view with empty caches, summarised.
            let (summary, results) = try await browser.measure(url, runs: 5)
            #expect(results.count == 5)
            #expect(summary["loadEventEnd"] != nil)
        }
        await server.stop()
    }
}
