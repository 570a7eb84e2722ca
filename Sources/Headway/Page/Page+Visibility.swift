import CHeadwayShims
import CWebKit

extension Page {
    /// Whether the page is shown, as an open window's page is: its document's
    /// `visibilityState` is "visible". True for a new page; `setVisible(false)` hides it.
    public var isVisible: Bool {
        guard let window = window?.pointer else { return false }
        return gtk_widget_get_visible(window) != 0
    }

    /// Hides the page, as minimizing its window does, or shows it again, and returns once the
    /// document's `visibilityState` says so (the page has had its `visibilitychange` event), or
    /// at most 5 s later.
    ///
    /// A hidden page still loads, runs scripts, prints, takes screenshots and gets mouse and key
    /// input (as WebDriver's minimized windows do), but renders no frames: `requestAnimationFrame`
    /// waits, and a wheel event reaches it without scrolling it. It stays hidden across its
    /// navigations, and a size `setViewportSize` gives it applies once it is shown.
    ///
    /// ```swift
    /// try await page.setVisible(false)   // document.visibilityState == "hidden"
    /// try await page.setVisible(true)    // "visible" again
    /// ```
    ///
    /// Throws `.timeout` when the document has not seen the change within 5 s (a page stuck in
    /// JavaScript), `.closed` for a closed page. Cancelling the task throws `CancellationError`
    /// (the page keeps its new visibility).
    public func setVisible(_ visible: Bool) async throws {
        let view = try await readyView()
        guard let window = window?.pointer else { throw HeadwayError(.closed, "the page is closed") }
        // WebKitGTK tells the page it is visible while its view is mapped: hiding the offscreen
        // window unmaps the view, showing it maps the view again.
        if visible { gtk_widget_show(window) } else { gtk_widget_hide(window) }
        guard visible else {
            return try await untilPageSees("hidden", in: view, through: "return document.visibilityState;",
                                           what: "the page's visibility", change: "its visibilityState become hidden")
        }
        // Shown, it also takes the size it was given while hidden.
        let size = viewportSize
        try await untilPageSees(["visible", .number(Double(size.width)), .number(Double(size.height))], in: view,
                                through: "return [document.visibilityState, innerWidth, innerHeight];",
                                what: "the page's visibility",
                                change: "its visibilityState become visible at \(size.width) × \(size.height)")
    }

    // Reads `script` (an async-function body, in Headway's isolated world) every 10 ms until it
    // answers `wanted`, at most `windowChangeBound`: for a change of the page's window that the
    // web process learns of a little later.
    func untilPageSees(_ wanted: JSONValue, in view: UnsafeMutablePointer<WebKitWebView>, through script: String,
                       what: String, change: String) async throws {
        let deadline = Engine.now() + Self.windowChangeBound
        while true {
            try Task.checkCancellation()
            let left = Engine.now().duration(to: deadline)
            let seen = try? await JavaScriptCall.callAsyncFunction(
                view, script, arguments: [:], world: PageScripts.world,
                sourceURI: nil, timeout: max(left, .milliseconds(1)), what: what)
            if seen == wanted { return }
            guard Engine.now() < deadline else {
                let now = seen.map { "\($0)" } ?? "nothing"
                throw HeadwayError(.timeout, "the page did not see \(change) within "
                                   + "\(Self.windowChangeBound.formatted) (it sees \(now))")
            }
            try await Task.sleep(for: .milliseconds(10))
            _ = try liveView()
        }
    }

    // How long `setViewportSize` and `setVisible` wait for the page to see the change.
    static let windowChangeBound = Duration.seconds(5)
}
