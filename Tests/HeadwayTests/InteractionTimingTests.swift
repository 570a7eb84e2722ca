import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// A user's click, and what Event Timing measures of it.
@Suite("Interaction timing", .serialized)
@EngineActor
struct InteractionTimingTests {
    static let page = """
        <!doctype html><title>input</title>
        <button id="go" style="position:absolute;left:20px;top:30px;width:120px;height:40px">go</button>
        <script>
        window.clicks = []; window.entries = [];
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) window.entries.push({ name: e.name, duration: e.duration });
        }).observe({ type: 'event', buffered: true, durationThreshold: 16 });
        document.getElementById('go').addEventListener('click', (e) => {
          window.clicks.push(e.isTrusted);
          const start = performance.now();
          while (performance.now() - start < 80) {}
        });
        </script>
        """

    // WebKitGTK 2.50's Event Timing counts events (`performance.eventCounts`) but delivers no
    // `event` entries: `PerformanceObserver.supportedEntryTypes` has no "event", so there is no
    // INP. The README says so; this checks what the engine does give.
    @Test func aClickIsTrustedAndEventTimingCountsIt() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/input.html", .html(Self.page))
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("input.html"))
            try page.click(x: 60, y: 50)
            let seen = try await page.callAsyncFunction("""
                await new Promise((r) => setTimeout(r, 500));
                return { clicks: window.clicks, entries: window.entries, count: performance.eventCounts.get('click') ?? -1,
                         interactions: performance.interactionCount, types: PerformanceObserver.supportedEntryTypes };
                """)
            #expect(seen["clicks"] == [true])
            #expect(seen["count"] == 1, "\(seen)")
        }
    }
}
