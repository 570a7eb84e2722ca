import CWebKit
import Foundation

// Records a load's filmstrip on the engine thread: from the navigation's start it takes a frame
// of the view (`FrameCapture`) every 1/rate s, keeps each one that differs from the kept one
// before it, and after the load event goes on until frames have shown the view unchanged for
// `stableFor` or `afterLoadAtMost` has passed. Frames stay raw while recording (a comparison is
// one memcmp); they are encoded as PNG and histogrammed off the engine thread once the recording
// has ended, so that no encoding competes with the load being measured.
@EngineActor
final class FrameRecorder {
    private struct Raw {
        var at: ContinuousClock.Instant
        let surface: SurfaceBox
    }

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

    // The view before the navigation, the frame at 0: taken before the load is asked for, so that
    // a load shorter than a snapshot (30 to 100 ms of the web process's main thread) does not wait
    // for it. The recording's next frame comes an interval after `start`.
    func takeFirstFrame() async {
        guard task == nil, kept.isEmpty, let page, let (surface, at) = try? await FrameCapture.frame(of: page) else {
            return
        }
        keep(surface, at: at)
    }

    // Starts recording now: this instant is the frames' 0 until the page's clock is known.
    func start() {
        guard task == nil else { return }
        origin = Engine.now()
        lastChange = origin
        let first = kept.isEmpty ? origin : origin + interval
        task = Task { @EngineActor in await self.run(from: first) }
    }

    // Stops recording and drops the frames (a load that failed).
    func stop() {
        task?.cancel()
        end(.bound)
        kept.removeAll()
    }

    // After the load event: waits for the view to settle (or the bounds), then gives the filmstrip
    // (without frames unless `options.keepsFrames`) and its metrics, or nil when WebKit gave none.
    func finish() async throws -> (Filmstrip?, VisualMetrics)? {
        loadEnded = Engine.now()
        // Read now, while the page shows the document the load measured.
        let start = await navigationStart()
        if ending == nil, task != nil {
            await withTaskCancellationHandler {
                await withCheckedContinuation { waiters.append($0) }
            } onCancel: {
                Task { @EngineActor in self.stop() }
            }
        }
        try Task.checkCancellation()
        task?.cancel()
        let ending = ending ?? .bound
        // Frames from before the navigation's start show the view as it started: the last of
        // them is the frame at 0.
        var frames = kept.filter { $0.at > start }
        if let before = kept.last(where: { $0.at <= start }) {
            frames.insert(Raw(at: start, surface: before.surface), at: 0)
        }
        kept.removeAll()
        guard !frames.isEmpty else { return nil }
        var times = frames.map { Int(($0.at - start).milliseconds) }
        times[0] = 0  // the earliest frame is the baseline, even one WebKit gave after the start
        for index in times.indices.dropFirst() { times[index] = max(times[index], times[index - 1] + 1) }
        let surfaces = frames.map(\.surface), keepsFrames = options.keepsFrames
        return try await Task.detached {
            try Self.filmstrip(of: surfaces, at: times, ending: ending, encoding: keepsFrames)
        }.value
    }

    // The instant of the page's Navigation Timing origin (`performance.timeOrigin`) on Headway's
    // clock: the page's `performance.now()`, read in Headway's world, back from the middle of the
    // call (its error is half the call, a few ms). Without an answer, the load request's instant.
    private func navigationStart() async -> ContinuousClock.Instant {
        guard let view = page?.view?.pointer else { return origin }
        let asked = Engine.now()
        guard let now = try? await JavaScriptCall.callAsyncFunction(
            view, "return performance.now()", arguments: [:], world: PageScripts.world, sourceURI: nil,
            timeout: FrameCapture.snapshotTimeout, what: "the page's clock").doubleValue, now.isFinite, now >= 0 else {
            return origin
        }
        let answered = Engine.now()
        return max(origin, asked + (answered - asked) / 2 - Duration(clampedMilliseconds: now))
    }

    private func run(from first: ContinuousClock.Instant) async {
        var next = first
        try? await Task.sleep(until: first, clock: .continuous)
        while !Task.isCancelled, ending == nil, let page {
            let frame = try? await FrameCapture.frame(of: page)
            let now = Engine.now()
            // Only a frame says whether the view changed: a busy page that gives none is not stable.
            if let (surface, at) = frame, ending == nil {
                keep(surface, at: at)
                if let loadEnded, now - max(lastChange, loadEnded) >= options.stableFor { end(.stable) }
            }
            if let loadEnded, now - loadEnded >= options.afterLoadAtMost { end(.bound) }
            next = max(next + interval, now)
            try? await Task.sleep(until: next, clock: .continuous)
        }
        end(ending ?? .bound)
    }

    private func keep(_ surface: SurfaceBox, at time: ContinuousClock.Instant) {
        if let last = kept.last, last.surface.sameImage(as: surface) { return }
        let bytes = surface.pixelBytes
        guard bytes > 0, keptBytes + bytes <= options.maxBytes else { return end(.frameLimit) }
        lastChange = time
        kept.append(Raw(at: time, surface: surface))
        keptBytes += bytes
        if kept.count >= options.maxFrames { end(.frameLimit) }
    }

    private func end(_ why: Filmstrip.Ending) {
        if ending == nil { ending = why }
        let resumed = waiters
        waiters.removeAll()
        for waiter in resumed { waiter.resume() }
    }

    // The frames measured (and encoded, when kept), off the engine thread.
    nonisolated private static func filmstrip(of frames: [SurfaceBox], at times: [Int], ending: Filmstrip.Ending,
                                              encoding: Bool) throws -> (Filmstrip?, VisualMetrics) {
        let metrics = VisualMetrics(times: times, histograms: frames.map { $0.histogram() }, ending: ending)
        guard encoding else { return (nil, metrics) }
        var encoded: [Filmstrip.Frame] = []
        for (frame, time) in zip(frames, times) {
            encoded.append(Filmstrip.Frame(time: time, pngData: try frame.encode().pngData))
        }
        let first = frames[0].surface
        return (Filmstrip(frames: encoded, width: Int(cairo_image_surface_get_width(first)),
                          height: Int(cairo_image_surface_get_height(first))), metrics)
    }
}
