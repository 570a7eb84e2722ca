import Foundation

// The limits on seconds Headway waits for (timeouts, settling, emulated latency), and the checks
// that keep a huge, infinite or NaN value from ever reaching an integer conversion:
// `try Seconds.validate(userValue, name: "--timeout")` throws on inf, nan, -5, 1e300.
package enum Seconds {
    // The longest wait Headway honours: one day. Library calls clamp longer timeouts to it.
    package static let longest: Double = 86_400

    // Checks seconds a person gave for `name`: a finite number, above 0 (or at least 0 when
    // `allowZero`), at most `longest`. Throws `.invalidArgument` with a one-line message.
    @discardableResult
    package static func validate(_ value: Double, name: String, allowZero: Bool = false) throws -> Double {
        guard !value.isNaN else { throw HeadwayError(.invalidArgument, "\(name) must be a number of seconds, not nan") }
        if allowZero {
            guard value >= 0 else { throw HeadwayError(.invalidArgument, "\(name) must be at least 0") }
        } else {
            guard value > 0 else { throw HeadwayError(.invalidArgument, "\(name) must be positive") }
        }
        guard value <= longest else {
            throw HeadwayError(.invalidArgument, "\(name) must be at most \(Int(longest)) seconds (one day)")
        }
        return value
    }

    // `value` brought into 0...longest; NaN becomes 0.
    static func clamp(_ value: Double) -> Double {
        value > 0 ? min(value, longest) : 0
    }
}

extension Duration {
    // This duration in seconds, as the engine's clocks count them.
    var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }

    // `seconds` as a Duration that never traps: clamped to 0...`Seconds.longest`, NaN as 0.
    static func clamped(seconds: Double) -> Duration {
        .milliseconds(Int64((Seconds.clamp(seconds) * 1000).rounded(.up)))
    }
}

// Seconds for a message: "30 s", "0.25 s".
func formatSeconds(_ seconds: Double) -> String {
    let value = Seconds.clamp(seconds)
    return value == value.rounded() ? "\(Int(value)) s" : String(format: "%.2f s", value)
}
