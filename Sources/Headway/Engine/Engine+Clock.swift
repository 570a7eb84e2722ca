import Foundation

// Headway's one clock: every deadline, phase time and cache age is an instant of the monotonic
// `ContinuousClock`, and every span between two of them a `Duration`. Nothing Headway compares
// comes from WebKit's or GLib's clocks, so no other clock is needed. Milliseconds appear only
// where a figure is printed (`Duration.milliseconds`, `JSONMilliseconds`).
extension Engine {
    // Now, on Headway's clock.
    nonisolated static func now() -> ContinuousClock.Instant { .now }
}

// The limits on how long Headway waits (timeouts, settling, emulated latency), and the check
// that turns a number of seconds a person gave into a Duration once, refusing what no Duration
// should be: `try TimeLimit.duration(seconds: value, name: "--timeout")` throws on inf, nan, -5, 1e300.
package enum TimeLimit {
    // The longest wait Headway honours: one day. Library calls clamp longer timeouts to it.
    package static let longest = Limits.longestWait

    // `value` seconds for `name` as a Duration: a finite number, above 0 (or at least 0 when
    // `allowZero`), at most `longest`. Throws `.invalidArgument` with a one-line message.
    package static func duration(seconds value: Double, name: String, allowZero: Bool = false) throws -> Duration {
        guard !value.isNaN else { throw HeadwayError(.invalidArgument, "\(name) must be a number of seconds, not nan") }
        if allowZero {
            guard value >= 0 else { throw HeadwayError(.invalidArgument, "\(name) must be at least 0") }
        } else {
            guard value > 0 else { throw HeadwayError(.invalidArgument, "\(name) must be positive") }
        }
        guard value <= longest.seconds else {
            throw HeadwayError(.invalidArgument, "\(name) must be at most \(Int(longest.seconds)) seconds (one day)")
        }
        // To the nanosecond, so that 0.2 is 200 ms exactly.
        return .nanoseconds(Int64((value * 1e9).rounded()))
    }
}

extension Duration {
    // This duration in seconds, for GLib and JavaScript, which count in numbers.
    var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }

    // This duration in milliseconds, as figures are printed.
    package var milliseconds: Double { seconds * 1000 }

    // Brought into 0...`TimeLimit.longest`, so that no wait is negative or endless.
    var clamped: Duration { Swift.min(Swift.max(self, .zero), TimeLimit.longest) }

    // `milliseconds` from outside (a page, a file) as a Duration that never traps: clamped to
    // 0...`TimeLimit.longest`, NaN as 0.
    init(clampedMilliseconds milliseconds: Double) {
        let limit = TimeLimit.longest.milliseconds
        self = .microseconds(Int64(((milliseconds > 0 ? Swift.min(milliseconds, limit) : 0) * 1000).rounded()))
    }

    // For a message: "30 s", "0.25 s".
    var formatted: String {
        let value = clamped.seconds
        return value == value.rounded() ? "\(Int(value)) s" : String(format: "%.2f s", value)
    }
}

// Milliseconds as JSON prints them: rounded to the microsecond (three decimals), so that the
// noise of binary floating point (52.00000000000001) never reaches the output.
enum JSONMilliseconds {
    static func rounded(_ milliseconds: Double) -> Double {
        milliseconds.isFinite ? (milliseconds * 1000).rounded() / 1000 : milliseconds
    }

    static func rounded(_ duration: Duration) -> Double { rounded(duration.milliseconds) }
}
