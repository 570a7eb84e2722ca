import Headway

// Get Window Rect, Set Window Rect, Maximize, Minimize and Fullscreen Window
// (https://www.w3.org/TR/webdriver2/#resizing-and-positioning-windows). Headway is headless: a
// window is its viewport, always at (0, 0); its size is the page's viewport (`Page.viewportSize`).
// Maximize and Fullscreen make it 1920 × 1080 (Headway has no screen to fill); Minimize leaves it
// as it is (a headless page is never hidden) and returns its rect.
extension Handlers {
    static let windowRects: [Command: Handler] = [
        .getWindowRect: { session, _ in try session.windowRect() },
        .setWindowRect: { session, request in
            let width = try request.windowSide("width", in: 0...Int(Int32.max))
            let height = try request.windowSide("height", in: 0...Int(Int32.max))
            // Checked as the spec says, then ignored: the window cannot move.
            _ = try request.windowSide("x", in: Int(Int32.min)...Int(Int32.max))
            _ = try request.windowSide("y", in: Int(Int32.min)...Int(Int32.max))
            let page = try session.currentPage()
            if width != nil || height != nil {
                let current = page.viewportSize
                try await session.resize(width: width ?? current.width, height: height ?? current.height)
            }
            return try session.windowRect()
        },
        .maximizeWindow: { session, _ in
            try await session.resize(width: Session.screenSize.width, height: Session.screenSize.height)
            return try session.windowRect()
        },
        .fullscreenWindow: { session, _ in
            try await session.resize(width: Session.screenSize.width, height: Session.screenSize.height)
            return try session.windowRect()
        },
        .minimizeWindow: { session, _ in try session.windowRect() },
    ]
}

extension Session {
    // The size Maximize and Fullscreen give the viewport.
    static let screenSize = (width: 1920, height: 1080)
    // The sides the viewport can have (`Page.setViewportSize`); larger or smaller asks get the
    // closest, as the spec allows.
    static let viewportSides = 1...10_000

    func windowRect() throws(WebDriverError) -> JSONValue {
        let size = try currentPage().viewportSize
        return ["x": 0, "y": 0, "width": .number(Double(size.width)), "height": .number(Double(size.height))]
    }

    func resize(width: Int, height: Int) async throws {
        let clamp = { (side: Int) in min(max(side, Self.viewportSides.lowerBound), Self.viewportSides.upperBound) }
        try await currentPage().setViewportSize(width: clamp(width), height: clamp(height))
    }
}

extension CommandRequest {
    // An integer in `range`, null or absent (nil); anything else is "invalid argument".
    func windowSide(_ key: String, in range: ClosedRange<Int>) throws(WebDriverError) -> Int? {
        guard let value = body[key], value != .null else { return nil }
        guard let side = value.integer(in: range) else {
            throw WebDriverError(.invalidArgument, "\"\(key)\" must be null or an integer from \(range.lowerBound) "
                + "to \(range.upperBound)")
        }
        return side
    }
}
