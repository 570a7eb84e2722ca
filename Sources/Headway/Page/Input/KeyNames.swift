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
