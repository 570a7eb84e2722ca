import CWebKit

// A key as `Page.keyDown(_:)` takes it, as a GDK keyval: one character, or a KeyboardEvent.key
// name.
enum KeyNames {
    static let named: [String: UInt32] = {
        var keys: [String: UInt32] = [
            "Enter": UInt32(GDK_KEY_Return), "Tab": UInt32(GDK_KEY_Tab), "Backspace": UInt32(GDK_KEY_BackSpace),
            "Delete": UInt32(GDK_KEY_Delete), "Escape": UInt32(GDK_KEY_Escape), "Insert": UInt32(GDK_KEY_Insert),
            "ArrowLeft": UInt32(GDK_KEY_Left), "ArrowRight": UInt32(GDK_KEY_Right),
            "ArrowUp": UInt32(GDK_KEY_Up), "ArrowDown": UInt32(GDK_KEY_Down),
            "Home": UInt32(GDK_KEY_Home), "End": UInt32(GDK_KEY_End),
            "PageUp": UInt32(GDK_KEY_Page_Up), "PageDown": UInt32(GDK_KEY_Page_Down),
            "Shift": UInt32(GDK_KEY_Shift_L), "Control": UInt32(GDK_KEY_Control_L),
            "Alt": UInt32(GDK_KEY_Alt_L), "Meta": UInt32(GDK_KEY_Meta_L),
        ]
        for number in 1...12 { keys["F\(number)"] = UInt32(GDK_KEY_F1) + UInt32(number - 1) }
        // The keypad's and the right-hand keys, by their KeyboardEvent.code (the keypad's
        // navigation keys, NumLock off, as Numpad + their key).
        for digit in 0...9 { keys["Numpad\(digit)"] = UInt32(GDK_KEY_KP_0) + UInt32(digit) }
        let variants: [String: Int32] = [
            "NumpadAdd": GDK_KEY_KP_Add, "NumpadSubtract": GDK_KEY_KP_Subtract,
            "NumpadMultiply": GDK_KEY_KP_Multiply, "NumpadDivide": GDK_KEY_KP_Divide,
            "NumpadDecimal": GDK_KEY_KP_Decimal, "NumpadComma": GDK_KEY_KP_Separator,
            "NumpadEqual": GDK_KEY_KP_Equal, "NumpadEnter": GDK_KEY_KP_Enter,
            "NumpadPageUp": GDK_KEY_KP_Page_Up, "NumpadPageDown": GDK_KEY_KP_Page_Down,
            "NumpadEnd": GDK_KEY_KP_End, "NumpadHome": GDK_KEY_KP_Home, "NumpadInsert": GDK_KEY_KP_Insert,
            "NumpadDelete": GDK_KEY_KP_Delete, "NumpadArrowLeft": GDK_KEY_KP_Left, "NumpadArrowUp": GDK_KEY_KP_Up,
            "NumpadArrowRight": GDK_KEY_KP_Right, "NumpadArrowDown": GDK_KEY_KP_Down,
            "ShiftRight": GDK_KEY_Shift_R, "ControlRight": GDK_KEY_Control_R, "AltRight": GDK_KEY_Alt_R,
            "MetaRight": GDK_KEY_Meta_R,
            "Cancel": GDK_KEY_Cancel, "Clear": GDK_KEY_Clear, "Help": GDK_KEY_Help, "Pause": GDK_KEY_Pause,
            "ZenkakuHankaku": GDK_KEY_Zenkaku_Hankaku,
        ]
        for (name, keyval) in variants { keys[name] = UInt32(keyval) }
        return keys
    }()

    // The keyval of `key`, or nil for neither one character nor a known name.
    static func keyval(_ key: String) -> UInt32? {
        if let keyval = named[key] { return keyval }
        guard key.count == 1, key.unicodeScalars.count == 1, let scalar = key.unicodeScalars.first else { return nil }
        switch scalar {
        case "\n", "\r": return UInt32(GDK_KEY_Return)
        case "\t": return UInt32(GDK_KEY_Tab)
        default:
            guard scalar.value >= 0x20, scalar.value != 0x7F else { return nil }
            return gdk_unicode_to_keyval(scalar.value)
        }
    }

    static func checked(_ key: String) throws -> UInt32 {
        guard let keyval = keyval(key) else {
            throw HeadwayError(.invalidArgument, "not a key: \(key.debugDescription) (one character, or a name "
                               + "such as Enter, Tab, ArrowLeft, Shift, F1)")
        }
        return keyval
    }
}
