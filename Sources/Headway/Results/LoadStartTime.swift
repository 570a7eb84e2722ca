public import Foundation

/// When a load was asked for, on two absolute clocks, so that it can be matched with a server's
/// log (the wall clock, as HAR's `startedDateTime`) or with other processes' monotonic times
/// (`CLOCK_MONOTONIC`, which no change of the system time moves). `Timing`'s phase times count
/// from this instant.
public struct LoadStartTime: Sendable, Codable, Equatable {
    /// The wall clock (UTC) at the load request, to the millisecond.
    public var wallClock: Date
    /// `CLOCK_MONOTONIC` at the load request, in seconds (since the system booted, not counting
    /// suspended time), to the microsecond.
    public var monotonic: Double

    /// A start time with each clock given.
    public init(wallClock: Date, monotonic: Double) {
        self.wallClock = wallClock
        self.monotonic = monotonic
    }

    /// Both clocks read now, set back by `elapsed`: the start of something that began `elapsed` ago.
    public static func now(minus elapsed: Duration = .zero) -> LoadStartTime {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        let monotonic = Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9 - elapsed.seconds
        let wall = Date().timeIntervalSince1970 - elapsed.seconds
        return LoadStartTime(wallClock: Date(timeIntervalSince1970: (wall * 1000).rounded(.down) / 1000),
                             monotonic: (monotonic * 1e6).rounded() / 1e6)
    }

    private enum CodingKeys: String, CodingKey { case wallClock, monotonic }

    /// `wallClock` as ISO 8601 in UTC with milliseconds (`2026-11-25T20:55:01.123Z`), `monotonic`
    /// in seconds.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(Self.iso8601(wallClock), forKey: .wallClock)
        try c.encode(monotonic, forKey: .monotonic)
    }

    /// Decodes the JSON `encode(to:)` writes.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let text = try c.decode(String.self, forKey: .wallClock)
        guard let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) else {
            throw DecodingError.dataCorruptedError(forKey: .wallClock, in: c,
                                                   debugDescription: "not an ISO 8601 time: \(text)")
        }
        self.init(wallClock: date, monotonic: try c.decode(Double.self, forKey: .monotonic))
    }

    // To the nearest millisecond, written out by hand: the formatter truncates a binary
    // fraction (.123 prints as .122).
    static func iso8601(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let seconds = milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
        let whole = Date(timeIntervalSince1970: Double(seconds)).formatted(Date.ISO8601FormatStyle())
        return whole.dropLast() + "." + String(format: "%03d", Int(milliseconds - seconds * 1000)) + "Z"
    }
}
