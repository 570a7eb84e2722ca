/// A timing metric of a load, by its name in `LoadResult.Timing` and in the CLI's JSON.
public struct TimingMetric: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The metric's name, such as `"loadEventEnd"`.
    public var rawValue: String

    /// The metric with this JSON name (`"loadEventEnd"`).
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The metric's JSON name.
    public var description: String { rawValue }

    /// Headway's clock: WebKit started the navigation, in ms since the load was requested.
    public static let started = TimingMetric(rawValue: "started")
    /// Headway's clock: the main frame committed, in ms since the load was requested.
    public static let committed = TimingMetric(rawValue: "committed")
    /// Headway's clock: the load finished (after the load event), in ms since the load was requested.
    public static let finished = TimingMetric(rawValue: "finished")
    /// Navigation Timing: first byte of the response, in ms since the navigation started.
    public static let responseStart = TimingMetric(rawValue: "responseStart")
    /// Navigation Timing: the document was parsed, in ms since the navigation started.
    public static let domInteractive = TimingMetric(rawValue: "domInteractive")
    /// Navigation Timing: the `DOMContentLoaded` handlers ended, in ms since the navigation started.
    public static let domContentLoadedEventEnd = TimingMetric(rawValue: "domContentLoadedEventEnd")
    /// Navigation Timing: the `load` handlers ended, in ms since the navigation started.
    public static let loadEventEnd = TimingMetric(rawValue: "loadEventEnd")
    /// Paint Timing: the first contentful paint, in ms since the navigation started.
    public static let firstContentfulPaint = TimingMetric(rawValue: "firstContentfulPaint")
    /// Visual metrics (a load with a filmstrip): the view first changed, in ms since the navigation started.
    public static let firstVisualChange = TimingMetric(rawValue: "firstVisualChange")
    /// Visual metrics: the Speed Index, in ms.
    public static let speedIndex = TimingMetric(rawValue: "speedIndex")
    /// Visual metrics: the view last changed, in ms since the navigation started.
    public static let lastVisualChange = TimingMetric(rawValue: "lastVisualChange")
}

extension Timing {
    /// The value of `metric` in milliseconds, as JSON has it, or nil when it is not available
    /// (`firstContentfulPaint`).
    public subscript(_ metric: TimingMetric) -> Double? { metrics.first { $0.name == metric.rawValue }?.value }
}

extension TimingSummary {
    /// The summary of `metric`, or nil when no load reported it: `summary[.loadEventEnd]?.median`.
    public subscript(_ metric: TimingMetric) -> MetricSummary? { self[metric.rawValue] }
}
