import CWebKit
import Foundation

extension Page {
    /// Clicks the first element that matches the CSS `selector`, as a user would: waits up to
    /// `timeout` for one to match, scrolls it into view if it is not wholly in view, and clicks
    /// the centre of its part in the viewport, returning once the page has had the `mouseup`.
    /// The element is found in Headway's isolated world, so a page that replaces
    /// `document.querySelector` or `getBoundingClientRect` does not change where the click goes.
    /// Throws `.invalidArgument` for a selector the page cannot parse, `.timeout` when nothing
    /// matched within `timeout`, `.scriptError` naming the selector when the element has no box
    /// to click (`display: none`, zero size), and otherwise as `click(x:y:button:clickCount:)`.
    ///
    /// ```swift
    /// try await page.click(selector: "button#submit")
    /// ```
    public func click(selector: String, timeout: Duration = .seconds(30)) async throws {
        try await waitFor(selector: selector, timeout: timeout)
        let view = try await readyView()
        let answer = try await JavaScriptCall.callAsyncFunction(
            view, PageScripts.clickPoint, arguments: ["selector": selector], world: PageScripts.world,
            sourceURI: nil, timeout: Self.inputDeadline, what: "the click's target")
        guard let x = answer["x"]?.doubleValue, let y = answer["y"]?.doubleValue else {
            let why = answer["why"]?.stringValue ?? "has no box"
            throw HeadwayError(.scriptError, "cannot click \(selector): the element \(why)")
        }
        try await click(x: x, y: y, button: .left, clickCount: 1)
    }
}

extension PageScripts {
    // Async-function body, in Headway's isolated world: brings the first match of `selector`
    // into view and answers the centre of its visible part, { x, y }, or { why }.
    static let clickPoint = #"""
    const element = document.querySelector(selector);
    if (!element) return { why: 'is gone (nothing matches)' };
    if (element.getClientRects().length === 0) return { why: 'has no box (not rendered)' };
    const width = document.documentElement.clientWidth || innerWidth;
    const height = document.documentElement.clientHeight || innerHeight;
    let r = element.getBoundingClientRect();
    if (r.left < 0 || r.top < 0 || r.right > width || r.bottom > height) {
      element.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
      r = element.getBoundingClientRect();
    }
    const left = Math.max(r.left, 0), right = Math.min(r.right, width);
    const top = Math.max(r.top, 0), bottom = Math.min(r.bottom, height);
    if (right <= left || bottom <= top) return { why: r.width && r.height ? 'is out of view' : 'has no size' };
    return { x: (left + right) / 2, y: (top + bottom) / 2 };
    """#
}
