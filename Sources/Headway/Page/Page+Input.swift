import CHeadwayShims
import CWebKit
import Foundation

extension Page {
    /// Clicks at (`x`, `y`) in CSS pixels from the viewport's top left, as a user would: the
    /// page gets trusted `mousedown`, `mouseup` and `click` events (which Event Timing measures,
    /// unlike a script's `element.click()`). Throws `.closed` for a closed page.
    public func click(x: Double, y: Double) throws {
        let view = try liveView()
        hw_widget_click(cast(view), x, y)
    }
}
