import CHeadwayShims
import CWebKit
import Foundation

extension Page {
    /// Clicks at (`x`, `y`) in CSS pixels from the viewport's top left, as a user would: the
    /// page gets trusted `mousedown`, `mouseup` and `click` events (which Event Timing measures,
    /// unlike a script's `element.click()`). Returns once the events are sent, not received:
    /// `click(x:y:button:clickCount:)` waits for the page. Throws `.closed` for a closed page,
    /// `.invalidArgument` for a coordinate that is not finite or beyond ±2147483647.
    public func click(x: Double, y: Double) throws {
        try InputNumbers.checkPoint(x: x, y: y)
        let view: UnsafeMutablePointer<GtkWidget> = cast(try liveView())
        hw_input_motion(view, x, y)
        hw_input_button(view, 1, MouseButton.left.gdkButton, 1)
        hw_input_button(view, 0, MouseButton.left.gdkButton, 0)
    }

    /// Moves the pointer to (`x`, `y`) in CSS pixels from the viewport's top left, with the
    /// buttons and modifier keys held, and returns once the page has had the `mousemove`; with
    /// `holdsDialogs`, once a dialog the input opened is open (at once when one is open already).
    /// Throws `.invalidArgument` for a coordinate that is not finite or beyond ±2147483647,
    /// `.closed` for a closed page, `.timeout` when the page did not take the event within
    /// 10 seconds, `CancellationError` when cancelled.
    public func mouseMove(x: Double, y: Double) async throws {
        try InputNumbers.checkPoint(x: x, y: y)
        let view = try await inputView()
        guard pointerPosition != (x, y) else { return }
        try await deliver(.move(x: x, y: y)) { hw_input_motion(view, x, y) }
    }

    /// Presses `button` where the pointer is, and returns once the page has had the
    /// `mousedown` (the `pointerdown`, when the page cancelled it and no `mousedown` comes). A
    /// press soon after a release at the same place counts as a double click, as a user's does.
    /// Errors as for `mouseMove`.
    public func mouseDown(button: MouseButton = .left) async throws {
        let view = try await inputView()
        try await deliver(.downs(1)) { hw_input_button(view, 1, button.gdkButton, 0) }
    }

    /// Releases `button` where the pointer is, and returns once the page has had the `mouseup`
    /// (the `pointerup` after a cancelled `pointerdown`). Errors as for `mouseMove`.
    public func mouseUp(button: MouseButton = .left) async throws {
        let view = try await inputView()
        try await deliver(.ups(1)) { hw_input_button(view, 0, button.gdkButton, 0) }
    }

    /// Moves the pointer to (`x`, `y`) and clicks `button` there `clickCount` times in quick
    /// succession (2 is a double click: the page gets `dblclick`, and `detail` counts up), then
    /// returns once the page has had the last `mouseup`. Throws `.invalidArgument` for a
    /// `clickCount` below 1 or above 3; otherwise errors as for `mouseMove` (coordinates too).
    public func click(x: Double, y: Double, button: MouseButton, clickCount: Int) async throws {
        try InputNumbers.checkPoint(x: x, y: y)
        guard (1...3).contains(clickCount) else {
            throw HeadwayError(.invalidArgument, "a click count must be 1, 2 or 3, not \(clickCount)")
        }
        try await mouseMove(x: x, y: y)
        let view = try await inputView()
        try await deliver(.ups(clickCount)) {
            for index in 0..<clickCount {
                hw_input_button(view, 1, button.gdkButton, index == 0 ? 1 : 0)
                hw_input_button(view, 0, button.gdkButton, 0)
            }
        }
    }

    /// Turns the wheel with the pointer at (`x`, `y`), by `deltaX` and `deltaY` CSS pixels
    /// (positive scrolls right and down), and returns once the page has had the `wheel` event.
    /// Throws `.invalidArgument` for a delta that is not finite or beyond ±1000000; otherwise
    /// errors as for `mouseMove`.
    public func wheel(x: Double, y: Double, deltaX: Double, deltaY: Double) async throws {
        try InputNumbers.checkPoint(x: x, y: y)
        try InputNumbers.checkWheel(deltaX: deltaX, deltaY: deltaY)
        try await mouseMove(x: x, y: y)
        // A hidden page renders no frames to wait for.
        if isVisible { try await frameRendered() }
        let view = try await inputView()
        try await deliver(.wheels(1)) {
            hw_input_scroll(view, deltaX / Self.wheelPixelsPerUnit, deltaY / Self.wheelPixelsPerUnit)
        }
    }

    /// The pointer's position in CSS pixels from the viewport's top left, as the last input
    /// left it ((0, 0) before any).
    public var pointerPosition: (x: Double, y: Double) {
        guard let view = view?.pointer else { return (0, 0) }
        let widget: UnsafeMutablePointer<GtkWidget> = cast(view)
        return (hw_input_pointer(widget, 0), hw_input_pointer(widget, 1))
    }

    /// The mouse buttons held down now, through `mouseDown(button:)`.
    public var pressedButtons: Set<MouseButton> {
        guard let view = view?.pointer else { return [] }
        let mask = hw_input_held(cast(view), 1)
        return Set(MouseButton.allCases.filter { mask & $0.gdkMask != 0 })
    }

    // The CSS pixels of a wheel event (`deltaY`, and the scroll) per GDK smooth-scroll unit in
    // WebKitGTK 2.50: 40 pixels a line, times 2.525 (InputTests check it).
    static let wheelPixelsPerUnit = 101.0

    // The view, focused and ready for input.
    func inputView() async throws -> UnsafeMutablePointer<GtkWidget> {
        let view: UnsafeMutablePointer<GtkWidget> = cast(try await readyView())
        guard hw_input_ready(view) != 0 else { throw HeadwayError(.closed, "the page has no window for input") }
        return view
    }
}
