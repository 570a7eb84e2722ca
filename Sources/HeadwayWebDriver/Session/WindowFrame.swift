// A window's position and state (https://www.w3.org/TR/webdriver2/#resizing-and-positioning-windows),
// which the rect commands keep and report back. Headway's windows are offscreen: the position
// is remembered, not applied (the page's `screenX` stays 0); the size is the page's viewport;
// a minimized window's page is hidden (`Page.setVisible`).
package struct WindowFrame: Sendable, Equatable {
    package enum State: String, Sendable {
        case normal, maximized, minimized, fullscreen
    }

    // A window's place and size when it is shown normally.
    package struct Rect: Sendable, Equatable {
        package var x, y, width, height: Int
    }

    package var x = 0
    package var y = 0
    package var state = State.normal
    // Where a maximized or fullscreen window (or one minimized from there) goes back to when it
    // is restored; nil while it is normal.
    package var normal: Rect?

    package init() {}
}
