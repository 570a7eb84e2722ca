import CHeadwayShims
import CWebKit
import Foundation

/// A full-page screenshot, written as PNG.
public struct Screenshot: Sendable {
    /// The image's width in pixels (the viewport's width times the device scale factor).
    public var width: Int
    /// The image's height in pixels: the whole page, not only the viewport.
    public var height: Int
    /// Distinct colours among sampled pixels; 1 means the image is blank.
    public var distinctColors: Int
    /// Whether the image has a single colour (a page that rendered nothing).
    public var isBlank: Bool { distinctColors <= 1 }
}

extension Page {
    /// Takes a snapshot of the whole document and writes it to `path` as PNG. The PNG is encoded
    /// off the engine thread.
    ///
    /// Throws `.timeout` when WebKit has not delivered the snapshot within `timeout` (a
    /// page stuck in JavaScript never paints), `.engine` when WebKit fails to take it (as for a
    /// page more than 32,767 device pixels tall or wide, cairo's limit for one image, which the
    /// message then gives), `.fileUnwritable` when the file cannot be written, `.closed` for a
    /// closed page. Cancelling the task stops it and throws `CancellationError`.
    public func screenshot(to path: String, timeout: Duration = .seconds(30)) async throws -> Screenshot {
        let started = Engine.now()
        do {
            return try await snapshot(to: path, timeout: timeout)
        } catch let error as HeadwayError where error.code == .engine {
            // WebKit says only "There was an error creating the snapshot".
            let left = (timeout.clamped - started.duration(to: Engine.now())).clamped
            // Measured in Headway's own world: the page cannot replace the Math it uses.
            guard let view = view?.pointer,
                  case .array(let size)? = try? await JavaScriptCall.callAsyncFunction(
                      view, Self.documentPixelSize, arguments: [:], world: PageScripts.world, sourceURI: nil,
                      timeout: left, what: "the page's size"),
                  let width = size.first?.doubleValue, let height = size.last?.doubleValue,
                  width.isFinite, height.isFinite, max(width, height) > Self.largestImageSide else { throw error }
            let pixels = String(format: "%.0f × %.0f", width, height)
            throw HeadwayError(.engine, "the screenshot failed: the page is \(pixels) device pixels, and a full-page "
                               + "screenshot can be at most 32767 on each side (cairo's image limit)",
                               gerror: error.gerror)
        }
    }

    // cairo's largest image surface, on each side.
    static let largestImageSide = 32_767.0
    static let documentPixelSize = """
        const e = document.documentElement, b = document.body || e, r = devicePixelRatio;
        return [Math.ceil(Math.max(e.scrollWidth, b.scrollWidth) * r),
                Math.ceil(Math.max(e.scrollHeight, b.scrollHeight) * r)];
        """

    private func snapshot(to path: String, timeout: Duration) async throws -> Screenshot {
        let view = try await readyView()
        let surface: SurfaceBox = try await bounded {
            try await engineAsync(
                timeout: timeout,
                onTimeout: {
                    HeadwayError(.timeout, "the screenshot was not taken within \(timeout.formatted)")
                }
            ) { cancellable, callback, data in
                webkit_web_view_get_snapshot(view, WEBKIT_SNAPSHOT_REGION_FULL_DOCUMENT, WEBKIT_SNAPSHOT_OPTIONS_NONE,
                                             cancellable, callback, data)
            } finish: { source, result in
                var error: UnsafeMutablePointer<GError>?
                guard let surface = webkit_web_view_get_snapshot_finish(source.map { cast($0, to: WebKitWebView.self) },
                                                                        result, &error) else {
                    throw HeadwayError.consuming(error, .engine, "the screenshot failed")
                }
                return SurfaceBox(surface)
            }
        }
        try Task.checkCancellation()
        // The surface is ours alone now; encoding a tall page takes far longer than the engine
        // thread may block, so it happens on a worker thread.
        return try await Task.detached {
            try surface.write(to: path)
        }.value
    }
}

// Owns one cairo surface reference; used by one thread at a time.
private final class SurfaceBox: @unchecked Sendable {
    let surface: OpaquePointer
    init(_ surface: OpaquePointer) { self.surface = surface }
    deinit { cairo_surface_destroy(surface) }

    func write(to path: String) throws -> Screenshot {
        let status = cairo_surface_write_to_png(surface, path)
        guard status == CAIRO_STATUS_SUCCESS else {
            let reason = String(cString: cairo_status_to_string(status))
            throw HeadwayError(.fileUnwritable, "could not write the screenshot to \(path): \(reason)")
        }
        return Screenshot(width: Int(cairo_image_surface_get_width(surface)),
                          height: Int(cairo_image_surface_get_height(surface)),
                          distinctColors: distinctColors(samples: 20_000))
    }

    // Distinct RGB colours among up to `samples` pixels spread evenly over the image.
    private func distinctColors(samples: Int) -> Int {
        cairo_surface_flush(surface)
        let width = Int(cairo_image_surface_get_width(surface)), height = Int(cairo_image_surface_get_height(surface))
        let rowBytes = Int(cairo_image_surface_get_stride(surface))
        guard cairo_surface_get_type(surface) == CAIRO_SURFACE_TYPE_IMAGE, width > 0, height > 0,
              let data = cairo_image_surface_get_data(surface) else { return 0 }
        let total = width * height
        var seen = Set<UInt32>()
        for index in stride(from: 0, to: total, by: max(1, total / max(1, samples))) {
            let offset = (index / width) * rowBytes + (index % width) * 4
            let pixel = UnsafeRawPointer(data + offset).loadUnaligned(as: UInt32.self)
            seen.insert(pixel & 0x00ff_ffff)
        }
        return seen.count
    }
}
