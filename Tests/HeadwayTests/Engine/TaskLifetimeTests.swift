import Foundation
@testable import Headway
import HeadwayTestSupport
import Testing

/// No task a page starts outlives it: the responsiveness check that a cancelled script starts
/// has ended by the time `withPage` returns, and never touches the closed page's web view
/// (GLib prints a CRITICAL for a freed view).
@Suite("Task lifetime", .serialized)
@EngineActor
struct TaskLifetimeTests {
    @Test(arguments: ["evaluate", "callAsyncFunction"])
    func aCancelledScriptLeavesNothingRunningOnTheClosedPage(call: String) async throws {
        let (outlived, log) = try await capturingStandardError {
            var outlived = 0
            for _ in 0..<20 {
                var opened: Page?
                let scope = Task { @EngineActor in
                    try await Browser.withPage { page in
                        opened = page
                        return call == "evaluate"
                            ? try await page.evaluate("while (true) {}", timeout: .seconds(20))
                            : try await page.callAsyncFunction("await new Promise(() => {})", timeout: .seconds(20))
                    }
                }
                try await Task.sleep(for: .milliseconds(300))
                scope.cancel()
                await #expect(throws: CancellationError.self) { try await scope.value }
                if opened?.responsiveness?.isRunning == true { outlived += 1 }
            }
            // Anything left queued for the closed pages runs before this page's script ends.
            #expect(try await Browser.withPage { page in try await page.evaluate("1 + 1") } == .number(2))
            return outlived
        }
        #expect(outlived == 0, "a responsiveness check outlived its page \(outlived) of 20 times")
        #expect(!log.contains("CRITICAL"), "GLib: \(log)")
    }
}
