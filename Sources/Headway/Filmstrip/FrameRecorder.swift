import CWebKit
import Foundation

// Records a load's filmstrip on the engine thread: from the navigation's start it asks WebKit for
// a snapshot of the visible viewport every 1/rate s (the web process's own rendering, scrollbars
// excluded), keeps each frame that differs from the kept one before it, and after the load event
// goes on until the view has been unchanged for `stableFor` or `afterLoadAtMost` has passed.
// Frames stay raw while recording (a comparison is one memcmp); they are encoded as PNG and
// histogrammed off the engine thread once the recording has ended, so that no encoding competes
// with the load being measured.
@EngineActor
final class FrameRecorder {
    private struct Raw {
        var at: ContinuousClock.Instant
        let surface: SurfaceBox
    }

    // A snapshot that takes longer counts as none: the web process is busy (and drew nothing new).
    static let snapshotTimeout: Duration = .seconds(2)

    private weak var page: Page?
    private let options: FilmstripOptions
    private let interval: Duration
    private var origin = Engine.now()
    private var kept: [Raw] = []
    private var keptBytes = 0
    private var lastChange = Engine.now()
    private var loadEnded: ContinuousClock.Instant?
    private var ending: Filmstrip.Ending?
    private var task: Task<Void, Never>?
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(page: Page, options: FilmstripOptions) {
        self.page = page
        self.options = options
        interval = .seconds(1) / options.framesPerSecond
    }

    // Starts recording now: this instant is the frames' 0 (the navigation's start).
    func start() {
        guard task == nil else { return }
        origin = Engine.now()
        lastChange = origin
        task = Task { @EngineActor in await self.run() }
    }

    // Stops recording and drops the frames (a load that failed).
    func stop() {
        task?.cancel()
        end(.bound)
        kept.removeAll()
    }

    // After the load event: waits for the view to settle (or the bounds), then gives the filmstrip.
    func finish() async throws -> (Filmstrip, VisualMetrics) {
        loadEnded = Engine.now()
        if ending == nil, task != nil {
            await withTaskCancellationHandler {
                await withCheckedContinuation { waiters.append($0) }
            } onCancel: {
                Task { @EngineActor in self.stop() }
            }
        }
        try Task.checkCancellation()
        task?.cancel()
        let start = await navigationStart()
        let ending = ending ?? .bound
        // Frames from before the navigation's start show the view as it started: the last of
        // them is the frame at 0.
        var frames = kept.filter { $0.at > start }
        if let before = kept.last(where: { $0.at <= start }) {
            frames.insert(Raw(at: start, surface: before.surface), at: 0)
        }
        kept.removeAll()
        guard !frames.isEmpty else {
            throw HeadwayError(.engine, "the filmstrip has no frames: WebKit drew none of the page")
        }
        var times = frames.map { Int(($0.at - start).milliseconds) }
        times[0] = 0  // the earliest frame is the baseline, even one WebKit gave after the start
        for index in times.indices.dropFirst() { times[index] = max(times[index], times[index - 1] + 1) }
        let surfaces = frames.map(\.surface)
        return try await Task.detached { try Self.filmstrip(of: surfaces, at: times, ending: ending) }.value
    }

    // The instant of the page's Navigation Timing origin (`performance.timeOrigin`) on Headway's
    // clock: the page's `performance.now()`, read in Headway's world, back from the middle of the
    // call (its error is half the call, a few ms). Without an answer, the load request's instant.
    private func navigationStart() async -> ContinuousClock.Instant {
        guard let view = page?.view?.pointer else { return origin }
        let asked = Engine.now()
        guard let now = try? await JavaScriptCall.callAsyncFunction(
            view, "return performance.now()", arguments: [:], world: PageScripts.world, sourceURI: nil,
            timeout: Self.snapshotTimeout, what: "the page's clock").doubleValue, now.isFinite, now >= 0 else {
            return origin
        }
        let answered = Engine.now()
        return max(origin, asked + (answered - asked) / 2 - Duration(clampedMilliseconds: now))
    }

    private func run() async {
        var next = origin
        while !Task.isCancelled, ending == nil, let view = page?.view?.pointer {
            let surface = try? await frame(of: view)
            let now = Engine.now()
            if let surface, ending == nil { keep(surface, at: now) }
            if let loadEnded {
                if now - max(lastChange, loadEnded) >= options.stableFor { end(.stable) }
                else if now - loadEnded >= options.afterLoadAtMost { end(.bound) }
            }
            next = max(next + interval, now)
            try? await Task.sleep(until: next, clock: .continuous)
        }
        end(ending ?? .bound)
    }

    private func keep(_ surface: SurfaceBox, at time: ContinuousClock.Instant) {
        let image = surface.surface
        cairo_surface_flush(image)
        let height = Int(cairo_image_surface_get_height(image)), rowBytes = Int(cairo_image_surface_get_stride(image))
        if let last = kept.last, last.surface.sameImage(as: surface) { return }
        lastChange = Engine.now()
        kept.append(Raw(at: time, surface: surface))
        keptBytes += height * rowBytes
        if kept.count >= options.maxFrames || keptBytes >= options.maxBytes { end(.frameLimit) }
    }

    private func end(_ why: Filmstrip.Ending) {
        if ending == nil { ending = why }
        let resumed = waiters
        waiters.removeAll()
        for waiter in resumed { waiter.resume() }
    }

    // The view as drawn: with compositing off, the offscreen window's own surface (what GTK drew,
    // nothing asked of the web process); composited, whose layers GTK cannot draw offscreen, a
    // snapshot the web process paints.
    private func frame(of view: UnsafeMutablePointer<WebKitWebView>) async throws -> SurfaceBox {
        if page?.browser?.configuration.acceleratedCompositing == false {
            let widget: UnsafeMutablePointer<GtkWidget> = cast(view)
            // A resize GTK has queued but not done yet would make the view refuse to draw.
            if let window = page?.window?.pointer { gtk_container_check_resize(cast(window)) }
            let width = gtk_widget_get_allocated_width(widget), height = gtk_widget_get_allocated_height(widget)
            guard let copy = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height) else {
                throw HeadwayError(.engine, "a filmstrip frame failed: no memory for \(width) × \(height) pixels")
            }
            // White where the view has drawn nothing yet, as a browser's new tab.
            let context = cairo_create(copy)
            cairo_set_source_rgb(context, 1, 1, 1)
            cairo_paint(context)
            gtk_widget_draw(widget, context)
            cairo_destroy(context)
            return SurfaceBox(copy)
        }
        return try await snapshot(of: view)
    }

    private func snapshot(of view: UnsafeMutablePointer<WebKitWebView>) async throws -> SurfaceBox {
        try await engineAsync(timeout: Self.snapshotTimeout) { cancellable, callback, data in
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

    // The frames encoded and measured, off the engine thread.
    nonisolated private static func filmstrip(of frames: [SurfaceBox], at times: [Int], ending: Filmstrip.Ending) throws
        -> (Filmstrip, VisualMetrics) {
        var encoded: [Filmstrip.Frame] = [], histograms: [ColorHistogram] = []
        for (frame, time) in zip(frames, times) {
            encoded.append(Filmstrip.Frame(time: time, pngData: try frame.encode().pngData))
            histograms.append(frame.histogram())
        }
        let first = frames[0].surface
        return (Filmstrip(frames: encoded, width: Int(cairo_image_surface_get_width(first)),
                          height: Int(cairo_image_surface_get_height(first))),
                VisualMetrics(times: times, histograms: histograms, ending: ending))
    }
}

extension SurfaceBox {
    // Whether both images have the same size and pixels.
    func sameImage(as other: SurfaceBox) -> Bool {
        let a = surface, b = other.surface
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
