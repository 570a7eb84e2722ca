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
}
