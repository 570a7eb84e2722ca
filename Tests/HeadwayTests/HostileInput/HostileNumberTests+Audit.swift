import Foundation
@testable import Headway
import HeadwayTestSupport
import Testing

/// Numbers found by the audit of integer conversions: a caller's booster settings and a page's
/// own figures give a clear error, never a trap.
extension HostileNumberTests {
    @Test func aBoosterConcurrencyBeyondWhatLibsoupHoldsIsRefused() async throws {
        for concurrency in [Int.max, 1 << 40, 0, -3] {
            var booster = BoosterConfiguration()
            booster.concurrency = concurrency
            var configuration = Browser.Configuration()
            configuration.booster = booster
            let error = await #expect(throws: HeadwayError.self) {
                try await Browser.withPage(configuration: configuration) { _ in }
            }
            #expect(error?.code == .invalidArgument)
            #expect(error?.message == "the booster's concurrency must be 1 to 256 requests, not \(concurrency)")
        }
    }

    // The page's size is read from the page after WebKit fails a snapshot: a page that makes
    // `devicePixelRatio` infinite or NaN must not trap the size's conversion.
    @Test func aTooTallPageWithAnInfiniteDevicePixelRatioIsReportedWithoutTrapping() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        for ratio in ["Infinity", "1e300", "NaN"] {
            server.route("/tall.html", .html("<!doctype html><body style='margin:0'><div style='height:40000px'></div>"
                + "<script>Object.defineProperty(window, 'devicePixelRatio', { get: () => \(ratio) });</script>"))
            let path = FileManager.default.temporaryDirectory
                .appendingPathComponent("headway-ratio-\(getpid()).png").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            try await Browser.withPage { page in
                try await page.load(server.url.appendingPathComponent("tall.html"))
                let error = await #expect(throws: HeadwayError.self) { try await page.screenshot(to: path) }
                #expect(error?.code == .engine, "\(ratio)")
            }
        }
    }
}
