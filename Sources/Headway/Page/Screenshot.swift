import CHeadwayShims
import CWebKit
import Foundation

/// A full-page screenshot, written as PNG.
public struct Screenshot: Sendable {
    public var width: Int
    public var height: Int
    /// Distinct colours among sampled pixels; 1 means the image is blank.
    public var distinctColors: Int
    public var isBlank: Bool { distinctColors <= 1 }
}

extension Page {
    /// Takes a snapshot of the whole document and writes it to `path` as PNG. The PNG is encoded
    /// off the engine thread.
    public func screenshot(to path: String) async throws -> Screenshot {
        let view = try liveView()
        let surface: SurfaceBox = try await withCheckedThrowingContinuation { continuation in
            let box = Unmanaged.passRetained(ContinuationBox(continuation)).toOpaque()
            webkit_web_view_get_snapshot(view, WEBKIT_SNAPSHOT_REGION_FULL_DOCUMENT, WEBKIT_SNAPSHOT_OPTIONS_NONE, nil, { source, result, data in
                let box = Unmanaged<ContinuationBox<SurfaceBox, Error>>.fromOpaque(data!).takeRetainedValue()
                var error: UnsafeMutablePointer<GError>?
                let view = source.map { cast($0, to: WebKitWebView.self) }
                if let surface = webkit_web_view_get_snapshot_finish(view, result, &error) {
                    box.continuation.resume(returning: SurfaceBox(surface))
                } else {
                    box.continuation.resume(throwing: HeadwayError.consuming(error, .engine, "the screenshot failed"))
                }
            }, box)
        }
        // The surface is ours alone now; encoding a tall page takes far longer than the engine
        // thread may block, so it happens on a worker thread.
        return try await Task.detached {
            try surface.write(to: path)
        }.value
    }
}

/// Owns one cairo surface reference; used by one thread at a time.
private final class SurfaceBox: @unchecked Sendable {
    let surface: OpaquePointer
    init(_ surface: OpaquePointer) { self.surface = surface }
    deinit { cairo_surface_destroy(surface) }

    func write(to path: String) throws -> Screenshot {
        let status = hw_surface_write_png(surface, path)
        guard status == 0 else {
            let reason = String(cString: cairo_status_to_string(cairo_status_t(UInt32(status))))
            throw HeadwayError(.fileUnreadable, "could not write the screenshot to \(path): \(reason)")
        }
        return Screenshot(width: Int(cairo_image_surface_get_width(surface)),
                          height: Int(cairo_image_surface_get_height(surface)),
                          distinctColors: Int(hw_surface_distinct_colors(surface, 20_000)))
    }
}
