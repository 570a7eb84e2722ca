import CHeadwayShims
import CWebKit
import Foundation

/// A rectangle of the document to screenshot, in CSS pixels from the document's top-left
/// corner (not the viewport's: scrolling does not move it), as WebDriver's element screenshot
/// gives an element's rectangle.
public struct ScreenshotClip: Sendable, Equatable {
    /// The left edge, in CSS pixels from the document's left edge.
    public var x: Double
    /// The top edge, in CSS pixels from the document's top.
    public var y: Double
    /// The width in CSS pixels; more than 0.
    public var width: Double
    /// The height in CSS pixels; more than 0.
    public var height: Double

    /// The rectangle at (`x`, `y`) of `width` × `height` CSS pixels.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

extension Page {
    /// Takes a snapshot of the whole document and keeps the part `clip` covers (what of it lies
    /// inside the document), encoded as PNG; the image is `clip`'s size times the device scale
    /// factor, rounded out to whole pixels.
    ///
    /// Throws `.invalidArgument` when `clip` has a size of 0 or less, a value that is not finite,
    /// more than 32767 device pixels on a side, or lies wholly outside the document; otherwise
    /// as `screenshot(timeout:)`.
    public func screenshot(clip: ScreenshotClip, timeout: Duration = .seconds(30)) async throws -> Screenshot {
        let scale = Double(browser?.configuration.deviceScaleFactor ?? 1)
        let values = [clip.x, clip.y, clip.width, clip.height]
        guard values.allSatisfy(\.isFinite), clip.width > 0, clip.height > 0 else {
            throw HeadwayError(.invalidArgument, "a screenshot clip needs finite values and a size above 0, not "
                               + "\(clip.width) × \(clip.height) at (\(clip.x), \(clip.y))")
        }
        guard max(clip.width, clip.height) * scale <= Self.largestImageSide else {
            throw HeadwayError(.invalidArgument, "a screenshot clip can be at most 32767 device pixels on each side")
        }
        let surface = try await documentSurface(timeout: timeout)
        return try await Task.detached {
            let documentWidth = Double(cairo_image_surface_get_width(surface.surface))
            let documentHeight = Double(cairo_image_surface_get_height(surface.surface))
            // Device pixels, rounded out, cut to the document.
            let left = max(0, (clip.x * scale).rounded(.down)), top = max(0, (clip.y * scale).rounded(.down))
            let right = min(documentWidth, ((clip.x + clip.width) * scale).rounded(.up))
            let bottom = min(documentHeight, ((clip.y + clip.height) * scale).rounded(.up))
            guard right > left, bottom > top else {
                throw HeadwayError(.invalidArgument, "the screenshot clip \(clip.width) × \(clip.height) at "
                                   + "(\(clip.x), \(clip.y)) lies outside the document "
                                   + "(\(documentWidth / scale) × \(documentHeight / scale) CSS pixels)")
            }
            return try surface.cropped(x: Int(left), y: Int(top), width: Int(right - left),
                                       height: Int(bottom - top)).encode()
        }.value
    }
}

extension SurfaceBox {
    // A new image of the `width` × `height` pixels at (`x`, `y`) of this one.
    func cropped(x: Int, y: Int, width: Int, height: Int) throws -> SurfaceBox {
        let target = SurfaceBox(cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)))
        let status = cairo_surface_status(target.surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw HeadwayError(.engine, "the clipped screenshot could not be made: "
                               + String(cString: cairo_status_to_string(status)))
        }
        let context = cairo_create(target.surface)
        cairo_set_source_surface(context, surface, Double(-x), Double(-y))
        cairo_paint(context)
        cairo_destroy(context)
        cairo_surface_flush(target.surface)
        return target
    }
}
