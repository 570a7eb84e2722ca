import CWebKit
import Foundation

// One frame of a view, on the engine thread, and the comparisons a filmstrip makes of frames.
// A frame is a snapshot of the visible viewport that the web process paints when asked, in both
// compositing modes. (What GTK draws of the view is no substitute with compositing off: until
// WebKit has a backing store, each draw sends the web process a ForceUpdate and blocks the engine
// thread for up to 500 ms waiting for it, which delayed loads by seconds.)
@EngineActor
enum FrameCapture {
    // A snapshot that takes longer counts as none: the web process is busy (and drew nothing new).
    static let snapshotTimeout: Duration = .seconds(2)

    // The frame and the instant it shows: the middle of the snapshot's call.
    static func frame(of page: Page) async throws -> (SurfaceBox, ContinuousClock.Instant)? {
        guard let view = page.view?.pointer else { return nil }
        let asked = Engine.now()
        let surface = try await snapshot(of: view)
        return (surface, asked + (Engine.now() - asked) / 2)
    }

    private static func snapshot(of view: UnsafeMutablePointer<WebKitWebView>) async throws -> SurfaceBox {
        try await engineAsync(timeout: snapshotTimeout) { cancellable, callback, data in
            webkit_web_view_get_snapshot(view, WEBKIT_SNAPSHOT_REGION_VISIBLE, WEBKIT_SNAPSHOT_OPTIONS_NONE,
                                         cancellable, callback, data)
        } finish: { source, result in
            var error: UnsafeMutablePointer<GError>?
            guard let surface = webkit_web_view_get_snapshot_finish(source.map { cast($0, to: WebKitWebView.self) },
                                                                    result, &error) else {
                throw HeadwayError.consuming(error, .engine, "a filmstrip frame failed")
            }
            return SurfaceBox(surface)
        }
    }
}

extension SurfaceBox {
    // The bytes of its pixels (0 for a surface in error).
    var pixelBytes: Int {
        cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS
            ? Int(cairo_image_surface_get_height(surface)) * Int(cairo_image_surface_get_stride(surface)) : 0
    }

    // Whether both images have the same size and pixels.
    func sameImage(as other: SurfaceBox) -> Bool {
        let a = surface, b = other.surface
        cairo_surface_flush(a)
        cairo_surface_flush(b)
        let width = Int(cairo_image_surface_get_width(a)), height = Int(cairo_image_surface_get_height(a))
        guard width == Int(cairo_image_surface_get_width(b)), height == Int(cairo_image_surface_get_height(b)),
              let pa = cairo_image_surface_get_data(a), let pb = cairo_image_surface_get_data(b) else { return false }
        let strideA = Int(cairo_image_surface_get_stride(a)), strideB = Int(cairo_image_surface_get_stride(b))
        for y in 0..<height where memcmp(pa + y * strideA, pb + y * strideB, width * 4) != 0 { return false }
        return true
    }

    func histogram() -> ColorHistogram {
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else {
            return ColorHistogram(counts: Array(repeating: 0, count: 768))
        }
        return ColorHistogram(pixels: data, width: Int(cairo_image_surface_get_width(surface)),
                              height: Int(cairo_image_surface_get_height(surface)),
                              rowBytes: Int(cairo_image_surface_get_stride(surface)))
    }
}
