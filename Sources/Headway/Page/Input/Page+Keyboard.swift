import CHeadwayShims
import CWebKit

extension Page {
    /// Presses `key` and returns once the page has had the `keydown`. `key` is one character
    /// (`"a"`, `"A"`, `"é"`, `" "`) or a `KeyboardEvent.key` name: Enter, Tab, Backspace,
    /// Delete, Escape, ArrowLeft, ArrowRight, ArrowUp, ArrowDown, Home, End, PageUp, PageDown,
    /// Insert, Shift, Control, Alt, Meta, F1 to F12, Pause, Help, Cancel, Clear, ZenkakuHankaku.
    /// A keypad or right-hand key goes by its `KeyboardEvent.code`: Numpad0 to Numpad9,
    /// NumpadAdd, NumpadSubtract, NumpadMultiply, NumpadDivide, NumpadDecimal, NumpadComma,
    /// NumpadEqual, NumpadEnter, ShiftRight, ControlRight, AltRight, MetaRight; the keypad's
    /// navigation keys (NumLock off) as Numpad and their key name: NumpadPageUp, NumpadHome,
    /// NumpadArrowLeft, NumpadInsert, NumpadDelete and the like. A modifier stays held (in the
    /// state of later key and mouse events: shift-click, Control+A) until its `keyUp`. The keys
    /// go to the focused element, as a user's typing does. With `holdsDialogs`, the call returns
    /// once a dialog the key opened is open (at once when one is open already). Throws
    /// `.invalidArgument` for any other `key`, `.closed` for a closed page, `.timeout` when the
    /// page did not take the event within 10 seconds.
    public func keyDown(_ key: String) async throws {
        let keyval = try KeyNames.checked(key)
        let view = try await inputView()
        try await deliver(.keyDowns(1)) { hw_input_key(view, 1, keyval) }
    }

    /// Releases `key` and returns once the page has had the `keyup`. Keys and errors as for
    /// `keyDown(_:)`.
    public func keyUp(_ key: String) async throws {
        let keyval = try KeyNames.checked(key)
        let view = try await inputView()
        try await deliver(.keyUps(1)) { hw_input_key(view, 0, keyval) }
    }

    /// Presses and releases `key`, as `keyDown(_:)` then `keyUp(_:)`.
    ///
    /// ```swift
    /// try await page.press("Enter")
    /// ```
    public func press(_ key: String) async throws {
        let keyval = try KeyNames.checked(key)
        let view = try await inputView()
        try await deliver(.keyUps(1)) {
            hw_input_key(view, 1, keyval)
            hw_input_key(view, 0, keyval)
        }
    }

    /// Types `text` into the focused element, pressing each character in turn (with Shift for
    /// capitals and shifted symbols, as a user would; `"\n"` is Enter, `"\t"` Tab), and returns
    /// once the page has had every key. Throws `.invalidArgument` for a control character;
    /// otherwise errors as for `keyDown(_:)`.
    ///
    /// ```swift
    /// try await page.click(selector: "input[name=q]")
    /// try await page.type("hello")
    /// ```
    public func type(_ text: String) async throws {
        let keyvals = try text.map { try KeyNames.checked(String($0)) }
        guard !keyvals.isEmpty else { return }
        let view = try await inputView()
        let shift = UInt32(GDK_KEY_Shift_L)
        let shifted = keyvals.map { hw_input_keyval_needs_shift(view, $0) != 0 && !pressedModifiers.contains(.shift) }
        let ups = keyvals.count + shifted.filter { $0 }.count
        try await deliver(.keyUps(ups)) {
            for (keyval, addShift) in zip(keyvals, shifted) {
                if addShift { hw_input_key(view, 1, shift) }
                hw_input_key(view, 1, keyval)
                hw_input_key(view, 0, keyval)
                if addShift { hw_input_key(view, 0, shift) }
            }
        }
    }

    /// The modifier keys held down now, through `keyDown(_:)`.
    public var pressedModifiers: KeyModifiers {
        guard let view = view?.pointer else { return [] }
        return KeyModifiers(gdkState: hw_input_held(cast(view), 0))
    }
}
