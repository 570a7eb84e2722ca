import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// Keys reach the focused element as a user's typing: trusted, with their key names and held
/// modifiers, and the text lands in inputs and text areas.
@Suite("Input: keyboard", .serialized)
@EngineActor
struct InputKeyboardTests {
    @Test func typedTextIsThereForTheNextScript() async throws {
        try await InputRecorder.withPage { page in
            try await page.click(selector: "#field")
            // No wait between typing and reading: the typing call returns once the page has it.
            for round in 0..<25 {
                _ = try await page.evaluate("document.getElementById('field').value = ''")
                try await page.type("hello")
                let value = try await page.evaluate("document.getElementById('field').value")
                #expect(value == "hello", "round \(round)")
            }
        }
    }

    @Test func capitalsSymbolsAndAccentsAsAUserTypesThem() async throws {
        try await InputRecorder.withPage { page in
            try await page.click(selector: "#area")
            try await page.type("Hi, wé!\nok")
            #expect(try await page.evaluate("document.getElementById('area').value") == "Hi, wé!\nok")
            #expect(try await page.evaluate("document.activeElement.id") == "area")
            #expect(try await page.evaluate("document.hasFocus()") == true)
            let downs = try await InputRecorder.seen(page, ["keydown"])
            #expect(downs.allSatisfy { $0["trusted"] == true && $0["target"] == "area" })
            #expect(downs.compactMap { $0["key"]?.stringValue }
                == ["Shift", "H", "i", ",", " ", "w", "é", "Shift", "!", "Enter", "o", "k"])
            #expect(downs[1]["shift"] == true && downs[2]["shift"] == false)
            #expect(downs[1]["code"] == "KeyH")
        }
    }

    @Test func namedKeysAndHeldControl() async throws {
        try await InputRecorder.withPage { page in
            try await page.click(selector: "#field")
            try await page.type("abcd")
            try await page.press("Backspace")
            try await page.press("ArrowLeft")
            try await page.type("X")
            #expect(try await page.evaluate("document.getElementById('field').value") == "abXc")
            try await page.keyDown("Control")
            #expect(page.pressedModifiers == .control)
            try await page.press("a")
            try await page.keyUp("Control")
            let selected = try await page.evaluate(
                "const f = document.getElementById('field'); [f.selectionStart, f.selectionEnd]")
            #expect(selected == [0, 4])
            let downs = try await InputRecorder.seen(page, ["keydown"])
            let named = downs.compactMap { $0["key"]?.stringValue }.filter { $0.count > 1 }
            #expect(named == ["Backspace", "ArrowLeft", "Shift", "Control"])
            #expect(downs.last { $0["key"] == "a" }?["ctrl"] == true)
            for key in ["Enter", "Tab", "Escape", "F5", "PageDown", "Home"] {
                try await page.keyDown(key)
                try await page.keyUp(key)
            }
            let last = try await InputRecorder.seen(page, ["keyup"]).suffix(6).map { $0["key"] }
            #expect(last == ["Enter", "Tab", "Escape", "F5", "PageDown", "Home"])
            // Tabbing past the page's last field and back: no key is lost.
            for _ in 0..<6 { try await page.press("Tab") }
            try await page.click(selector: "#area")
            try await page.type("back")
            let state = try await page.evaluate(
                "[document.getElementById('area').value, document.activeElement.id, document.hasFocus()]")
            #expect(state == ["back", "area", true])
        }
    }

    // The keypad's and the right-hand keys by their KeyboardEvent.code, with the location and
    // code a user's keyboard gives them; the keypad's digits type, with NumLock on.
    @Test func keypadAndRightHandKeys() async throws {
        try await InputRecorder.withPage { page in
            try await page.click(selector: "#field")
            for key in ["Numpad7", "NumpadDecimal", "NumpadAdd", "NumpadHome", "ShiftRight", "Pause"] {
                try await page.press(key)
            }
            #expect(try await page.evaluate("document.getElementById('field').value") == "7.+")
            let downs = try await InputRecorder.seen(page, ["keydown"]).map { event -> JSONValue in
                .array([event["key"] ?? .null, event["code"] ?? .null, event["location"] ?? .null])
            }
            #expect(downs == [["7", "Numpad7", 3], [".", "NumpadDecimal", 3], ["+", "NumpadAdd", 3],
                              ["Home", "Numpad7", 3], ["Shift", "ShiftRight", 2], ["Pause", "Pause", 0]])
        }
    }

    @Test func anUnknownKeyIsRefused() async throws {
        try await InputRecorder.withPage { page in
            for key in ["Return", "ab", "", "\u{7}"] {
                let error = await #expect(throws: HeadwayError.self) { try await page.press(key) }
                #expect(error?.code == .invalidArgument, "\(key.debugDescription)")
            }
            let error = await #expect(throws: HeadwayError.self) { try await page.type("ok\u{1}") }
            #expect(error?.code == .invalidArgument)
        }
    }
}
