import Headway

// Get Window Rect, Set Window Rect, Maximize, Minimize and Fullscreen Window
// (https://www.w3.org/TR/webdriver2/#resizing-and-positioning-windows). A window's size is its
// page's viewport; its position and state are kept (`WindowFrame`). Maximize and Fullscreen make
// it 1920 × 1080 at (0, 0), Headway having no screen to fill, and remember the rect to restore.
// Minimize hides the page (`document.visibilityState` "hidden"); Set Window Rect, Maximize and
// Fullscreen show it again. Each returns once the page has seen the change.
extension Handlers {
    static let windowRects: [Command: Handler] = [
        .getWindowRect: { session, _ in try session.windowRect() },
        .setWindowRect: { session, request in
            let width = try request.windowNumber("width", in: 0...Int(Int32.max))
            let height = try request.windowNumber("height", in: 0...Int(Int32.max))
            let x = try request.windowNumber("x", in: Int(Int32.min)...Int(Int32.max))
            let y = try request.windowNumber("y", in: Int(Int32.min)...Int(Int32.max))
            var frame = try await session.restoreWindow()
            if width != nil || height != nil {
                let size = try session.currentPage().viewportSize
                try await session.resize(width: width ?? size.width, height: height ?? size.height)
            }
            frame.x = x ?? frame.x
            frame.y = y ?? frame.y
            try session.keep(frame)
            return try session.windowRect()
        },
        .maximizeWindow: { session, _ in try await session.fillScreen(as: .maximized) },
        .fullscreenWindow: { session, _ in try await session.fillScreen(as: .fullscreen) },
        .minimizeWindow: { session, _ in
            var frame = try session.currentFrame()
            if frame.state == .fullscreen { frame = try await session.unmaximize(frame) }
            // A window minimized while maximized stays so: restoring it goes back to its rect.
            frame.state = .minimized
            try session.keep(frame)
            try await session.currentPage().setVisible(false)
            return try session.windowRect()
        },
    ]
}

extension Session {
    // The size Maximize and Fullscreen give the viewport.
    static let screenSize = (width: 1920, height: 1080)

    func windowRect() throws(WebDriverError) -> JSONValue {
        let size = try currentPage().viewportSize
        let frame = try currentFrame()
        return ["x": .number(Double(frame.x)), "y": .number(Double(frame.y)),
                "width": .number(Double(size.width)), "height": .number(Double(size.height))]
    }

    func resize(width: Int, height: Int) async throws {
        let clamp = { (side: Int) in min(max(side, Limits.viewportSide.lowerBound), Limits.viewportSide.upperBound) }
        try await currentPage().setViewportSize(width: clamp(width), height: clamp(height))
    }

    // The spec's "fully exit fullscreen" and "restore the window": the page shown, and a
    // maximized or fullscreen window back at the rect it had. Returns the normal frame, kept.
    func restoreWindow() async throws -> WindowFrame {
        let page = try currentPage()
        if !page.isVisible { try await page.setVisible(true) }
        var frame = try await unmaximize(try currentFrame())
        frame.state = .normal
        try keep(frame)
        return frame
    }

    // A maximized or fullscreen window's frame back at the rect it had before (resized to it).
    func unmaximize(_ frame: WindowFrame) async throws -> WindowFrame {
        guard let normal = frame.normal else { return frame }
        try await resize(width: normal.width, height: normal.height)
        var restored = frame
        (restored.x, restored.y, restored.normal, restored.state) = (normal.x, normal.y, nil, .normal)
        return restored
    }

    // Maximize or Fullscreen: the page shown, at (0, 0) and the screen's size, remembering the
    // rect to restore.
    func fillScreen(as state: WindowFrame.State) async throws -> JSONValue {
        let page = try currentPage()
        if !page.isVisible { try await page.setVisible(true) }
        var frame = try currentFrame()
        if frame.normal == nil {
            let size = page.viewportSize
            frame.normal = WindowFrame.Rect(x: frame.x, y: frame.y, width: size.width, height: size.height)
        }
        try await resize(width: Self.screenSize.width, height: Self.screenSize.height)
        (frame.x, frame.y, frame.state) = (0, 0, state)
        try keep(frame)
        return try windowRect()
    }
}

extension CommandRequest {
    // A number in `range`, rounded toward zero, or nil when null or absent; anything else is
    // "invalid argument". The spec takes any Number: 550.5 asks for 550.
    func windowNumber(_ key: String, in range: ClosedRange<Int>) throws(WebDriverError) -> Int? {
        guard let value = body[key], value != .null else { return nil }
        guard let number = value.doubleValue, number.isFinite,
              number >= Double(range.lowerBound), number <= Double(range.upperBound) else {
            throw WebDriverError(.invalidArgument, "\"\(key)\" must be null or a number from \(range.lowerBound) "
                + "to \(range.upperBound)")
        }
        return Int(number.rounded(.towardZero))
    }
}
