import Foundation
import Headway

extension Session {
    // Types `text` as Element Send Keys does (https://www.w3.org/TR/webdriver2/#dispatch-actions-for-a-string):
    // a modifier key stays held until it comes again, U+E000 (NULL) or the end of the text; a
    // shifted character is typed with Shift, every other character is pressed and released. The
    // spec's text only presses a modifier again; WebKitWebDriver, chromedriver and geckodriver
    // release it (a toggle), which Selenium's `send_keys(Keys.SHIFT, "ab", Keys.SHIFT, "c")` relies on.
    func type(_ text: String, page: Page) async throws {
        var held: [String] = []
        func releaseHeld() async throws {
            for key in held.reversed() { try await page.keyUp(key) }
            held.removeAll()
        }
        for character in text {
            if character == WebDriverKeys.null {
                try await releaseHeld()
                continue
            }
            let key = try WebDriverKeys.name(character)
            if WebDriverKeys.modifiers.contains(key) {
                if let index = held.firstIndex(of: key) {
                    try await page.keyUp(key)
                    held.remove(at: index)
                } else {
                    try await page.keyDown(key)
                    held.append(key)
                }
                continue
            }
            let shiftHeld = held.contains("Shift") || page.pressedModifiers.contains(.shift)
            let addShift = WebDriverKeys.shifted.contains(character) && !shiftHeld
            let sent = Self.shifted(key, shiftHeld)
            if addShift { try await page.keyDown("Shift") }
            try await page.keyDown(sent)
            try await page.keyUp(sent)
            if addShift { try await page.keyUp("Shift") }
        }
        try await releaseHeld()
    }

    // After a click or keys: if a navigation started (the page is loading, or shows another URL
    // than `before`), wait for it under the page load strategy, bounded by the pageLoad timeout
    // (as WebKitWebDriver's waitForNavigationToComplete).
    func waitForNavigation(_ page: Page, from before: URL?) async throws {
        guard capabilities.pageLoadStrategy != .none else { return }
        // The input call returned once the page had its events, and the web process asks for the
        // policy of a navigation they start before it answers that check: such a navigation shows
        // by now. Two round trips more show one the page scheduled (a form submission, a
        // `location` assignment, each on a zero timer): the first runs after those timers, the
        // second after WebKit answered the policy requests they made. A prompt ends the check.
        var started = page.isLoading || page.url != before
        if !started, page.openDialog == nil {
            _ = try? await page.unlessDialogOpens {
                _ = try await page.callAsyncFunction("await new Promise((done) => setTimeout(done, 0))",
                                                     timeout: .seconds(1))
                _ = try await page.evaluate("0", timeout: .seconds(1))
            }
            started = page.isLoading || page.url != before
        }
        guard started else { return }
        let wanted: Set<String> = capabilities.pageLoadStrategy == .eager ? ["interactive", "complete"] : ["complete"]
        let deadline = ContinuousClock.now + timeouts.pageLoadDuration
        while ContinuousClock.now < deadline {
            if !page.isLoading, let state = (try? await page.evaluate("document.readyState"))?.stringValue,
               wanted.contains(state) { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw WebDriverError(.timeout, "the navigation the input started did not load within the pageLoad timeout "
                             + "(\(timeouts.pageLoad) ms)")
    }
}
