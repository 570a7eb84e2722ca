import CHeadwayShims
import CWebKit
import Foundation

extension Page {
    /// The viewport's size in CSS pixels (the offscreen window the view fills): the page's
    /// `innerWidth` and `innerHeight`. Starts as the browser's `viewportWidth` and
    /// `viewportHeight`; (0, 0) once the page is closed.
    public var viewportSize: (width: Int, height: Int) {
        guard let view = view?.pointer else { return (0, 0) }
        return (Int(gtk_widget_get_allocated_width(cast(view))), Int(gtk_widget_get_allocated_height(cast(view))))
    }

    /// Resizes the viewport to `width` × `height` CSS pixels and returns once the page sees the
    /// new size (its `innerWidth` and `innerHeight`), or at most 5 s later. A hidden page
    /// (`setVisible(false)`) keeps its size until it is shown; `setVisible(true)` waits for both.
    ///
    /// Throws `.invalidArgument` for a side outside `Limits.viewportSide`, `.timeout` when the page
    /// has not seen the new size within 5 s (a page stuck in JavaScript), `.closed` for a closed
    /// page.
    /// Cancelling the task throws `CancellationError` (the window keeps its new size).
    public func setViewportSize(width: Int, height: Int) async throws {
        for (name, side) in [("width", width), ("height", height)] {
            guard Limits.viewportSide.contains(side) else {
                throw HeadwayError(.invalidArgument, "the viewport \(name) must be 1 to "
                                   + "\(Limits.viewportSide.upperBound) CSS pixels, not \(side)")
            }
        }
        let view = try await readyView()
        guard let window = window?.pointer else { throw HeadwayError(.closed, "the page is closed") }
        // An offscreen window is as large as its default size (or its child's request, when larger).
        gtk_window_set_default_size(cast(window), Int32(width), Int32(height))
        gtk_widget_queue_resize(window)
        // A hidden page takes its new size when it is shown (`setVisible(true)` waits for it).
        guard isVisible else { return }
        try await untilPageSees([.number(Double(width)), .number(Double(height))], in: view,
                                through: "return [innerWidth, innerHeight];", what: "the viewport's size",
                                change: "the viewport's new size \(width) × \(height)")
    }

}
