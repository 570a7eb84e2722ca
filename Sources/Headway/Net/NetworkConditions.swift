import Foundation

/// Emulated network conditions: for `HTTPServer`, a bandwidth cap per response (one response at
/// a time per keep-alive connection, so per connection) and a latency before the first byte; for
/// `Browser.Configuration.networkConditions`, the same for each request the pages make.
public struct NetworkConditions: Sendable, Equatable, CustomStringConvertible {
    /// Bytes per second, or nil for no cap.
    public var bytesPerSecond: Double?
    /// The wait before the response's first byte.
    public var latency: Duration

    /// Conditions with `bytesPerSecond` (nil for no cap) and `latency`.
    public init(bytesPerSecond: Double? = nil, latency: Duration = .zero) {
        self.bytesPerSecond = bytesPerSecond
        self.latency = latency
    }

    /// No emulation.
    public static let none = NetworkConditions()

    /// The highest bandwidth the CLI's `--bandwidth` accepts, in bytes per second (100 Gbit/s).
    public static let maximumBytesPerSecond: Double = 100e9 / 8

    /// The conditions as a person reads them: "5 Mbit/s, 50 ms latency".
    public var description: String {
        let rate = bytesPerSecond.map { String(format: "%.2f Mbit/s", min($0, Self.maximumBytesPerSecond) * 8 / 1e6) }
            ?? "unlimited bandwidth"
        return "\(rate), \(Int(latency.clamped.milliseconds.rounded())) ms latency"
    }
}
