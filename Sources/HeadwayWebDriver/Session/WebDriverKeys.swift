// WebDriver's keys (https://www.w3.org/TR/webdriver2/#keyboard-actions) as the library's
// `Page.keyDown(_:)` names them: a private-use character U+E000-U+E05D is a normalized key, any
// other character types itself.
enum WebDriverKeys {
    static let null: Character = "\u{E000}"

    // The normalized keys, with the keypad's and the right-hand ones by their KeyboardEvent.code
    // (https://www.w3.org/TR/webdriver2/#keyboard-actions, its table of codes and locations).
    static let normalized: [UInt32: String] = {
        var keys: [UInt32: String] = [
            0xE001: "Cancel", 0xE002: "Help", 0xE003: "Backspace", 0xE004: "Tab", 0xE005: "Clear", 0xE006: "Enter",
            0xE007: "Enter", 0xE008: "Shift", 0xE009: "Control", 0xE00A: "Alt", 0xE00B: "Pause", 0xE00C: "Escape",
            0xE00D: " ", 0xE00E: "PageUp",
            0xE00F: "PageDown", 0xE010: "End", 0xE011: "Home", 0xE012: "ArrowLeft", 0xE013: "ArrowUp",
            0xE014: "ArrowRight", 0xE015: "ArrowDown", 0xE016: "Insert", 0xE017: "Delete", 0xE018: ";",
            0xE019: "NumpadEqual", 0xE024: "NumpadMultiply", 0xE025: "NumpadAdd", 0xE026: "NumpadComma",
            0xE027: "NumpadSubtract", 0xE028: "NumpadDecimal", 0xE029: "NumpadDivide",
            0xE03D: "Meta", 0xE040: "ZenkakuHankaku", 0xE050: "ShiftRight", 0xE051: "ControlRight", 0xE052: "AltRight",
            0xE053: "MetaRight",
            0xE054: "NumpadPageUp", 0xE055: "NumpadPageDown", 0xE056: "NumpadEnd", 0xE057: "NumpadHome",
            0xE058: "NumpadArrowLeft", 0xE059: "NumpadArrowUp", 0xE05A: "NumpadArrowRight",
            0xE05B: "NumpadArrowDown", 0xE05C: "NumpadInsert", 0xE05D: "NumpadDelete",
        ]
        for digit in 0...9 { keys[0xE01A + UInt32(digit)] = "Numpad\(digit)" }
        for number in 1...12 { keys[0xE031 + UInt32(number - 1)] = "F\(number)" }
        return keys
    }()


    static let modifiers: Set<String> = [
        "Shift", "Control", "Alt", "Meta", "ShiftRight", "ControlRight", "AltRight", "MetaRight",
    ]

    // Characters typed with Shift on a US keyboard (the spec's shifted characters).
    static let shifted = Set("~!@#$%^&*()_+{}|:\"<>?ABCDEFGHIJKLMNOPQRSTUVWXYZ")

    // What a key types with Shift held on a US keyboard, where that differs.
    static let shiftedVersion: [Character: Character] = {
        var map = Dictionary(uniqueKeysWithValues: zip("`1234567890-=[]\\;',./", "~!@#$%^&*()_+{}|:\"<>?"))
        for letter in "abcdefghijklmnopqrstuvwxyz" { map[letter] = Character(letter.uppercased()) }
        return map
    }()

    // The library's name for a WebDriver key value (one grapheme).
    static func name(_ value: Character) throws(WebDriverError) -> String {
        if let scalar = value.unicodeScalars.first, value.unicodeScalars.count == 1 {
            if let name = normalized[scalar.value] { return name }
            if (0xE000...0xE05D).contains(scalar.value) {
                throw WebDriverError(.unsupportedOperation, "U+\(hex(scalar)) is no key WebDriver defines")
            }
            if scalar.value < 0x20 || scalar.value == 0x7F, value != "\n", value != "\r", value != "\t" {
                throw WebDriverError(.unsupportedOperation,
                                     "headway cannot type the control character U+\(hex(scalar))")
            }
        } else {
            throw WebDriverError(.unsupportedOperation,
                                 "headway types one code point per key: \(String(value).debugDescription) has several")
        }
        return String(value)
    }

    private static func hex(_ scalar: Unicode.Scalar) -> String {
        String(scalar.value, radix: 16, uppercase: true)
    }
}
