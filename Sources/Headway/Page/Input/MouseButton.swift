/// A mouse button, numbered as WebDriver and `MouseEvent.button` number them.
public enum MouseButton: Int, Sendable, CaseIterable {
    /// The primary button.
    case left = 0
    /// The wheel's button.
    case middle = 1
    /// The secondary button (the context menu's).
    case right = 2

    // GDK's number for the button.
    var gdkButton: UInt32 { UInt32(rawValue == 0 ? 1 : rawValue == 1 ? 2 : 3) }
    // GDK's state mask bit for the button held (GDK_BUTTON1_MASK is 1 << 8).
    var gdkMask: UInt32 { 1 << (7 + gdkButton) }
}

/// The modifier keys held down through `Page.keyDown(_:)`.
public struct KeyModifiers: OptionSet, Sendable, Hashable {
    /// The modifiers as bits.
    public let rawValue: Int
    /// Modifiers from their bits.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Shift.
    public static let shift = KeyModifiers(rawValue: 1)
    /// Control.
    public static let control = KeyModifiers(rawValue: 2)
    /// Alt (Option).
    public static let alt = KeyModifiers(rawValue: 4)
    /// Meta (the Windows or Command key).
    public static let meta = KeyModifiers(rawValue: 8)

    // From GDK's state mask: SHIFT 1 << 0, CONTROL 1 << 2, MOD1 1 << 3, META 1 << 28.
    init(gdkState state: UInt32) {
        var set: KeyModifiers = []
        if state & (1 << 0) != 0 { set.insert(.shift) }
        if state & (1 << 2) != 0 { set.insert(.control) }
        if state & (1 << 3) != 0 { set.insert(.alt) }
        if state & (1 << 28) != 0 { set.insert(.meta) }
        self = set
    }
}
