import Foundation
import Headway

// What each load of a `load` run waits for after its load event (or DOMContentLoaded), in this
// order, all within the load's --timeout: network idle (--wait-until networkidle, then
// --wait-for-network-idle's quiet time), an element, a text, a JavaScript predicate.
struct PageWaits: Sendable {
    var until: PageOptions.WaitUntil = .load
    var selector: String?
    var text: String?
    var function: String?
    var networkQuiet: Duration?

    // Whether there is anything to wait for once the load itself is done.
    var any: Bool { until == .networkidle || selector != nil || text != nil || function != nil || networkQuiet != nil }

    // Waits for each in turn; `left` is what remains of the load's timeout.
    @EngineActor
    func wait(on page: Page, left: () -> Duration) async throws {
        if until == .networkidle { try await page.waitForNetworkIdle(timeout: left()) }
        if let networkQuiet { try await page.waitForNetworkIdle(quiet: networkQuiet, timeout: left()) }
        if let selector { try await page.waitFor(selector: selector, timeout: left()) }
        if let text { try await page.waitFor(text: text, timeout: left()) }
        if let function { try await page.waitFor(function: function, timeout: left()) }
    }
}
