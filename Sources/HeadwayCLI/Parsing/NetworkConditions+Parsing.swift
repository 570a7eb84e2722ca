import Headway

// `--bandwidth` and `--latency` of `load`, `serve` and `demo`.
extension NetworkConditions {
    // Parses both options; a bad value throws a usage error naming its option.
    static func parsing(bandwidth: String, latency: String) throws -> NetworkConditions {
        NetworkConditions(bytesPerSecond: try parseBandwidth(bandwidth, name: "--bandwidth"),
                          latency: try parseLatency(latency, name: "--latency"))
    }

    // Parses a bandwidth such as `5mbit`, `500kbit`, `1gbit`, `64000bit`, `2MB` or `300KB`
    // (bits or bytes per second; k, m and g are powers of 1000) up to 100gbit. `0` or `none`
    // means no cap. `name` starts the error message.
    static func parseBandwidth(_ text: String, name: String = "bandwidth") throws -> Double? {
        let lower = text.trimmingCharacters(in: .whitespaces).lowercased()
        if lower == "0" || lower == "none" || lower == "unlimited" { return nil }
        let units: [(String, Double)] = [("gbit", 1e9 / 8), ("mbit", 1e6 / 8), ("kbit", 1e3 / 8), ("bit", 1.0 / 8),
                                         ("gb", 1e9), ("mb", 1e6), ("kb", 1e3), ("b", 1)]
        for (suffix, scale) in units where lower.hasSuffix(suffix) {
            guard let value = Double(lower.dropLast(suffix.count)) else { break }
            guard !value.isNaN, value > 0 || value.isZero else {
                throw HeadwayError(.invalidArgument, "\(name) must be positive (0 means no cap): '\(text)'")
            }
            if value.isZero { return nil }
            guard value * scale <= maximumBytesPerSecond else {
                throw HeadwayError(.invalidArgument, "\(name) must be at most 100gbit: '\(text)'")
            }
            return value * scale
        }
        throw HeadwayError(.invalidArgument, "not a bandwidth: '\(text)' (use for example 5mbit, 500kbit or 2MB)")
    }

    // Parses a latency such as `50ms`, `0.2s` or `0`, at most one day. `name` starts the error
    // message.
    static func parseLatency(_ text: String, name: String = "latency") throws -> Duration {
        let lower = text.trimmingCharacters(in: .whitespaces).lowercased()
        if lower == "0" { return .zero }
        let seconds: Double
        if lower.hasSuffix("ms"), let value = Double(lower.dropLast(2)) {
            seconds = value / 1000
        } else if lower.hasSuffix("s"), let value = Double(lower.dropLast(1)) {
            seconds = value
        } else {
            throw HeadwayError(.invalidArgument, "not a latency: '\(text)' (use for example 50ms or 0.2s)")
        }
        return try TimeLimit.duration(seconds: seconds, name: name, allowZero: true)
    }
}
