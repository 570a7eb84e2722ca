import Foundation
import Headway
import HeadwayTestSupport
import Testing

@Suite("Timing, repeats and screenshots", .serialized)
@EngineActor
struct TimingAndScreenshotTests {
    @Test func measureRepeatsColdLoadsAndSummarises() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let browser = try Browser()
        defer { browser.close() }
        let url = server.url.appendingPathComponent("page.html")
        let (summary, results) = try await browser.measure(url, runs: 3)
        #expect(results.count == 3)
        #expect(summary.runs == 3)
        let load = try #require(summary["loadEventEnd"])
        #expect(load.min > 0 && load.min <= load.median && load.median <= load.p95 && load.p95 <= load.max)
        // Each run is cold: the stylesheet is fetched every time.
        #expect(server.requestCount(path: "/style.css") == 3)
        #expect(server.requestCount(path: "/page.html") == 3)
    }

    @Test func percentilesUseNearestRank() throws {
        let summary = try #require(MetricSummary((1...20).map(Double.init)))
        #expect(summary.min == 1 && summary.max == 20)
        #expect(summary.median == 10.5)
        #expect(summary.p95 == 19)
        #expect(MetricSummary([]) == nil)
        #expect(MetricSummary([7])?.p95 == 7)
    }

    @Test func fullPageScreenshotIsNotBlank() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("headway-shot-\(getpid()).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("page.html"))
            let shot = try await page.screenshot(to: path)
            #expect(shot.width == 1280)
            #expect(shot.height >= 100)
            #expect(!shot.isBlank)
            #expect(shot.distinctColors >= 3)
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    // WebKit draws the whole page on one cairo image, which holds at most 32,767 px a side, and
    // says only "There was an error creating the snapshot" beyond that.
    // A page that replaces Math (1e300 reached an integer conversion, and trapped) is measured all
    // the same: in Headway's own script world.
    @Test(arguments: [false, true])
    func aPageTooTallForOneImageIsNamedWithItsSize(replacingMath: Bool) async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let hostile = replacingMath ? "<script>Math.ceil = Math.max = () => 1e300</script>" : ""
        server.route("/tall.html",
                     .html("<!doctype html><body style='margin:0'>\(hostile)<div style='height:40000px'></div>"))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("headway-tall-\(getpid()).png").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("tall.html"))
            let error = await #expect(throws: HeadwayError.self) { try await page.screenshot(to: path) }
            #expect(error?.code == .engine)
            #expect(error?.message.contains("the page is 1280 × 40000 device pixels") == true)
            #expect(error?.message.contains("at most 32767 on each side") == true)
            #expect(error?.gerror?.domain == "WebKitSnapshotError")
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
