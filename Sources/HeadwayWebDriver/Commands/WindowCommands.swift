import Foundation
import Headway

// Get Window Handle(s), New Window, Close Window, Switch To Window
// (https://www.w3.org/TR/webdriver2/#contexts). Each window is one Page of the session's browser.
// The rect commands are in WindowRectCommands.swift.
extension Handlers {
    static let windows: [Command: Handler] = windowHandles.merging(windowRects) { first, _ in first }

    private static let windowHandles: [Command: Handler] = [
        .getWindowHandle: { session, _ in
            _ = try session.currentPage()
            return .string(session.currentHandle ?? "")
        },
        .getWindowHandles: { session, _ in
            session.syncWindows()
            return .array(session.windows.map { .string($0.handle) })
        },
        .newWindow: { session, request in
            _ = try session.currentPage()
            // A tab or a window: the same to a headless browser, so the hint is echoed.
            let hint = try request.optionalString("type")
            try session.checkRoomForWindow()
            // In the current window's user context.
            let page = try session.currentBrowser.newPage()
            let handle = session.add(page, userContext: session.userContext(ofHandle: session.currentHandle ?? ""))
            _ = try await page.load(URL(string: "about:blank")!, timeout: session.timeouts.pageLoadDuration)
            return ["handle": .string(handle), "type": .string(hint == "window" ? "window" : "tab")]
        },
        .closeWindow: { session, _ in
            try session.closeCurrentWindow()
            session.syncWindows()
            // With none left, the service then deletes the session.
            return .array(session.windows.map { .string($0.handle) })
        },
        .switchToWindow: { session, request in
            try session.switchTo(handle: try request.string("handle"))
            return .null
        },
    ]
}
