import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// A user's click, and what Event Timing measures of it in WebKitGTK 2.50.
@Suite("Interaction timing", .serialized)
@EngineActor
struct InteractionTimingTests {
    static let page = """
        <!doctype html><title>input</title>
        <button id="go" style="position:absolute;left:20px;top:30px;width:120px;height:40px">go</button>
        <script>
        window.clicks = []; window.entries = [];
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) \
        window.entries.push({ type: e.entryType, name: e.name, duration: e.duration });
        }).observe({ type: 'event', buffered: true, durationThreshold: 16 });
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) \
        window.entries.push({ type: e.entryType, name: e.name, duration: e.duration });
        }).observe({ type: 'first-input', buffered: true });
        document.getElementById('go').addEventListener('click', (e) => {
          window.clicks.push(e.isTrusted);
          const start = performance.now();
          while (performance.now() - start < 50) {}
        });
        </script>
        """

    /// What the page saw, read two frames and 500 ms after the clicks.
    static let seen = """
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
        await new Promise((r) => setTimeout(r, 500));
        return { clicks: window.clicks, observed: window.entries,
                 listed: performance.getEntriesByType('event').length + \
        performance.getEntriesByType('first-input').length,
                 counted: Object.fromEntries([...performance.eventCounts].filter(([, n]) => n > 0)),
                 interactions: performance.interactionCount,
                 eventType: PerformanceObserver.supportedEntryTypes.includes('event') };
        """

    // Event Timing (on in every page's settings; `performance.eventCounts` is undefined without
    // it) counts trusted events only, and in WebKitGTK 2.50 delivers no `event` or `first-input`
    // entries and no interaction count: there is no INP. The README says so. When this test
    // fails on a newer WebKit because entries arrived, check the click's duration (>= 40 ms)
    // and update the README.
    @Test func aUsersClickIsCountedButGetsNoEntry() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/input.html", .html(Self.page))
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("input.html"))
            _ = try await page.evaluate("""
                document.getElementById('go').click(),
                document.getElementById('go').dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }))
                """)
            try page.click(x: 60, y: 50)
            let seen = try await page.callAsyncFunction(Self.seen)
            #expect(seen["clicks"] == [false, true])
            for type in ["pointerdown", "mousedown", "pointerup", "mouseup", "click"] {
                #expect(seen["counted"]?[type] == 1, "only the user's \(type) counts: \(seen)")
            }
            #expect(seen["observed"] == [], "\(seen)")
            #expect(seen["listed"] == 0)
            #expect(seen["interactions"] == 0)
            #expect(seen["eventType"] == false)
        }
    }
}
