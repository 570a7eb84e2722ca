/// How `Page.load(_:until:timeout:filmstrip:)` records what the page showed: frames of the
/// viewport from the navigation's start until the view is visually stable after the load event.
///
/// ```swift
/// let result = try await page.load(url, filmstrip: FilmstripOptions(framesPerSecond: 10))
/// print(result.visualMetrics?.speedIndex ?? 0)
/// ```
public struct FilmstripOptions: Sendable, Equatable {
    /// Frames a second asked of the engine, within `Limits.framesPerSecond` (default 10). A frame
    /// that equals the one before it is dropped, so a still page keeps few.
    public var framesPerSecond: Int
    /// How long the view must stay unchanged after the load event for the recording to end
    /// (default 1 s).
    public var stableFor: Duration
    /// The most the recording goes on after the load event: a page that never stops changing ends
    /// there, with `Filmstrip.Ending.bound` (default 5 s).
    public var afterLoadAtMost: Duration
    /// The most frames kept (default 300); past it the recording ends with `.frameLimit`.
    public var maxFrames: Int
    /// The most bytes of pixels kept while recording, 4 a device pixel (default 512 MiB: about 100
    /// frames of 1280 × 1024); the frame that would pass it ends the recording with `.frameLimit`.
    public var maxBytes: Int
    /// Whether the frames are encoded as PNG and kept in `LoadResult.filmstrip` (default true);
    /// false gives the visual metrics alone, without the cost of encoding.
    public var keepsFrames: Bool

    /// Options with each value given or its default.
    public init(framesPerSecond: Int = 10, stableFor: Duration = .seconds(1), afterLoadAtMost: Duration = .seconds(5),
                maxFrames: Int = 300, maxBytes: Int = 512 << 20, keepsFrames: Bool = true) {
        self.keepsFrames = keepsFrames
        self.framesPerSecond = framesPerSecond
        self.stableFor = stableFor
        self.afterLoadAtMost = afterLoadAtMost
        self.maxFrames = maxFrames
        self.maxBytes = maxBytes
    }

    // The options, or `.invalidArgument` naming the value out of bounds.
    func validated() throws -> FilmstripOptions {
        func refuse(_ what: String) -> HeadwayError { HeadwayError(.invalidArgument, "the filmstrip's \(what)") }
        guard Limits.framesPerSecond.contains(framesPerSecond) else {
            throw refuse("frame rate must be \(Limits.framesPerSecond.lowerBound) to "
                         + "\(Limits.framesPerSecond.upperBound) frames a second, not \(framesPerSecond)")
        }
        guard stableFor >= .zero, afterLoadAtMost >= .zero, stableFor <= Limits.longestWait,
              afterLoadAtMost <= Limits.longestWait else {
            throw refuse("durations must be 0 to \(Limits.longestWait.formatted)")
        }
        guard maxFrames >= 2, maxBytes >= 1 << 20 else {
            throw refuse("bounds must allow at least 2 frames and 1 MiB, not \(maxFrames) frames and \(maxBytes) bytes")
        }
        return self
    }
}
