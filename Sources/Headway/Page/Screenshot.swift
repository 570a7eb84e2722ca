import CHeadwayShims
import CWebKit
public import Foundation

/// A full-page screenshot, encoded as PNG.
public struct Screenshot: Sendable {
    /// The PNG file's bytes.
    public var pngData: Data
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
    /// Takes a snapshot of the whole document and writes it to `path` as PNG (see
    /// `screenshot(timeout:)`). A regular file (or none yet) is replaced whole, through a temporary
    /// file renamed over it; anything else (a symbolic link, a device, a FIFO) is written through,
    /// and a FIFO that no process reads fails at once. Throws as `screenshot(timeout:)` does, and
    /// `.fileUnwritable` when the file cannot be written.
    public func screenshot(to path: String, timeout: Duration = .seconds(30)) async throws -> Screenshot {
        let shot = try await screenshot(timeout: timeout)
        try await Task.detached { try Self.write(shot.pngData, to: path) }.value
        return shot
    }

    /// Takes a snapshot of the whole document and encodes it as PNG (`Screenshot.pngData`). The
    /// PNG is encoded off the engine thread.
    ///
    /// Throws `.timeout` when WebKit has not delivered the snapshot within `timeout` (a
    /// page stuck in JavaScript never paints), `.engine` when WebKit fails to take it (as for a
    /// page more than 32,767 device pixels tall or wide, cairo's limit for one image, which the
    /// message then gives) or cairo to encode it, `.closed` for a closed page. Cancelling the
    /// task stops it and throws `CancellationError`.
    public func screenshot(timeout: Duration = .seconds(30)) async throws -> Screenshot {
        let started = Engine.now()
        do {
            return try await snapshot(timeout: timeout)
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

    // Writes the PNG as `screenshot(to:)` says: a FIFO without a reader fails (ENXIO), never blocks.
    nonisolated private static func write(_ data: Data, to path: String) throws {
        func failure(_ reason: String) -> HeadwayError {
            HeadwayError(.fileUnwritable, "could not write the screenshot to \(path): \(reason)")
        }
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG else {
            do { return try data.write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
                throw failure(error.localizedDescription)
            }
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK, 0o666)
        guard fd >= 0 else { throw failure(errno == ENXIO ? "no process reads it" : String(cString: strerror(errno))) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        do { try handle.write(contentsOf: data) } catch { throw failure(error.localizedDescription) }
    }

    // cairo's largest image surface, on each side.
    static let largestImageSide = 32_767.0
    static let documentPixelSize = """
        const e = document.documentElement, b = document.body || e, r = devicePixelRatio;
        return [Math.ceil(Math.max(e.scrollWidth, b.scrollWidth) * r),
                Math.ceil(Math.max(e.scrollHeight, b.scrollHeight) * r)];
        """

    private func snapshot(timeout: Duration) async throws -> Screenshot {
        let surface = try await documentSurface(timeout: timeout)
        // The surface is ours alone now; encoding a tall page takes far longer than the engine
        // thread may block, so it happens on a worker thread.
        return try await Task.detached {
            try surface.encode()
        }.value
    }

    // WebKit's snapshot of the whole document, in device pixels.
    func documentSurface(timeout: Duration) async throws -> SurfaceBox {
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
        return surface
    }
}

// Owns one cairo surface reference; used by one thread at a time.
final class SurfaceBox: @unchecked Sendable {
    let surface: OpaquePointer
    init(_ surface: OpaquePointer) { self.surface = surface }
    deinit { cairo_surface_destroy(surface) }

    func encode() throws -> Screenshot {
        let buffer = PNGBuffer()
        let status = cairo_surface_write_to_png_stream(surface, { context, bytes, length in
            guard let context, let bytes else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<PNGBuffer>.fromOpaque(context).takeUnretainedValue().data.append(bytes, count: Int(length))
            return CAIRO_STATUS_SUCCESS
        }, Unmanaged.passUnretained(buffer).toOpaque())
        withExtendedLifetime(buffer) {}
        guard status == CAIRO_STATUS_SUCCESS else {
            throw HeadwayError(.engine, "the screenshot could not be encoded as PNG: "
                               + String(cString: cairo_status_to_string(status)))
        }
        return Screenshot(pngData: buffer.data, width: Int(cairo_image_surface_get_width(surface)),
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

// The PNG bytes cairo hands to the write callback, in order.
private final class PNGBuffer {
    var data = Data()
}
