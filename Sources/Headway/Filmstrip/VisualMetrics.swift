/// What a load's frames show of its progress, computed as browsertime's and WebPageTest's
/// `visualmetrics` computes them from a directory of frames: each frame's visual progress is how
/// far its colour histograms have moved from the first frame's towards the last frame's.
/// All times are milliseconds on the load's clock (`LoadResult.timing`'s).
public struct VisualMetrics: Sendable, Codable, Equatable {
    /// One frame's time and visual progress, 0 to 100.
    public struct Progress: Sendable, Codable, Equatable {
        /// The frame's time, in ms.
        public var time: Int
        /// How complete the frame looks against the last frame, in whole percent.
        public var percent: Int
    }

    /// When the view first differed from its first frame.
    public var firstVisualChange: Int
    /// When the view last changed: the last frame's time.
    public var lastVisualChange: Int
    /// The area above the visual progress curve, in ms: lower is better.
    public var speedIndex: Int
    /// When visual progress first reached 85, 95 and 99% and stayed at or above it.
    public var visualComplete85: Int
    /// As `visualComplete85`, at 95%.
    public var visualComplete95: Int
    /// As `visualComplete85`, at 99%.
    public var visualComplete99: Int
    /// Each kept frame's progress, in time order.
    public var progress: [Progress]
    /// Why the recording ended: a page that never stops changing ends at a bound, and its last
    /// frame (the 100% of `progress`) is the view then.
    public var recordingEnded: Filmstrip.Ending

    // The metrics of frames at `times` (ms, ascending, the first the baseline) with their
    // `histograms`, as `visualmetrics --dir` computes them for frames without duplicates.
    init(times: [Int], histograms: [ColorHistogram], ending: Filmstrip.Ending) {
        recordingEnded = ending
        precondition(!times.isEmpty && times.count == histograms.count, "visual metrics need frames")
        let first = histograms[0], last = histograms[histograms.count - 1]
        progress = zip(times, histograms).map { Progress(time: $0, percent: $1.progress(from: first, to: last)) }
        firstVisualChange = times.count > 1 ? times[1] : times[0]
        lastVisualChange = times[times.count - 1]
        speedIndex = Self.speedIndex(progress)
        visualComplete85 = Self.visuallyComplete(progress, at: 85)
        visualComplete95 = Self.visuallyComplete(progress, at: 95)
        visualComplete99 = Self.visuallyComplete(progress, at: 99)
    }

    /// The figures by their JSON names, in ms, as `Timing.metrics` has its own (what
    /// `TimingSummary` summarises over repeated loads).
    public var metrics: [(name: String, value: Double)] {
        [("firstVisualChange", firstVisualChange), ("speedIndex", speedIndex), ("visualComplete85", visualComplete85),
         ("visualComplete95", visualComplete95), ("visualComplete99", visualComplete99),
         ("lastVisualChange", lastVisualChange)].map { ($0.0, Double($0.1)) }
    }

    // Σ (t_k − t_{k−1}) · (1 − p_{k−1}), each interval weighted by the progress shown during it.
    static func speedIndex(_ progress: [Progress]) -> Int {
        var index = 0.0
        for (previous, next) in zip(progress, progress.dropFirst()) {
            index += Double(next.time - previous.time) * (1 - Double(previous.percent) / 100)
        }
        return Int(index)
    }

    // The first time progress reached `threshold` without falling below it later (browsertime's
    // extraMetrics); the last frame is at 100, so there is always one.
    static func visuallyComplete(_ progress: [Progress], at threshold: Int) -> Int {
        var reached: Int?
        for point in progress {
            if point.percent >= threshold { reached = reached ?? point.time } else { reached = nil }
        }
        return reached ?? progress[progress.count - 1].time
    }
}
