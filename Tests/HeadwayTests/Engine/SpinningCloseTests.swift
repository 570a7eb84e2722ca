import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// A browser closed while its page spins in JavaScript ends that page's web process, rather
/// than leaving it at full CPU until WebKit's watchdog.
@Suite("Closing a browser whose page spins", .serialized)
@EngineActor
struct SpinningCloseTests {
    @Test func closingTheBrowserEndsTheSpinningWebProcess() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/spin.html", .html("""
            <!doctype html><title>Spin</title>
            <script>addEventListener('load', () => setTimeout(() => { while (true) {} }, 100));</script>
            """))
        let own = getpid()
        let before = Set(descendants(of: own).keys)
        let browser = try Browser()
        let page = try browser.newPage()
        _ = try await page.load(server.url.appendingPathComponent("spin.html"))
        let spinning = await onOwnThread { () -> [Int32] in
            let deadline = Date().addingTimeInterval(30)
            var first: [Int32: Int] = [:]
            while Date() < deadline {
                let fresh = descendants(of: own).filter { !before.contains($0.key) }
                for pid in fresh.keys where fresh[pid]?.hasPrefix("WebKitWebProc") == true {
                    guard let ticks = cpuTicks(of: pid) else { continue }
                    if let start = first[pid] { if ticks - start >= 30 { return [pid] } } else { first[pid] = ticks }
                }
                usleep(20_000)
            }
            return []
        }
        #expect(!spinning.isEmpty, "no new web process spins")
        browser.close()
        #expect(await stillRunning(spinning, after: 3).isEmpty, "the spinning web process outlived the browser")
    }
}
