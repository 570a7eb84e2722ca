public import Foundation

/// min, median, p95 and max of one metric over repeated loads, in milliseconds (as `Timing.metrics`
/// and JSON have every metric); JSON rounds them to three decimals.
public struct MetricSummary: Sendable, Codable, Equatable {
    /// The smallest value, in ms.
    public var min: Double
    /// The median (the mean of the two middle values for an even count), in ms.
    public var median: Double
    /// The 95th percentile by nearest rank, in ms.
    public var p95: Double
    /// The largest value, in ms.
    public var max: Double

    /// Summarises `values` (nearest-rank percentiles). Returns nil for an empty list.
    public init?(_ values: [Double]) {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        func rank(_ p: Double) -> Double {
            sorted[Swift.max(0, Swift.min(sorted.count - 1, Int((p * Double(sorted.count)).rounded(.up)) - 1))]
        }
        min = sorted[0]
        median =
            sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        p95 = rank(0.95)
        max = sorted[sorted.count - 1]
    }

    private enum CodingKeys: String, CodingKey { case min, median, p95, max }

    /// Encodes the four figures in ms, rounded to three decimals.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(JSONMilliseconds.rounded(min), forKey: .min)
        try c.encode(JSONMilliseconds.rounded(median), forKey: .median)
        try c.encode(JSONMilliseconds.rounded(p95), forKey: .p95)
        try c.encode(JSONMilliseconds.rounded(max), forKey: .max)
    }
}

/// Per-metric summaries of several cold loads of one URL.
public struct TimingSummary: Sendable, Equatable, Encodable {
    /// The URL loaded.
    public var url: URL
    /// How many loads the summary covers.
    public var runs: Int
    /// Metric name (as in `Timing`'s JSON) to its summary, in `Timing.metrics` order.
    public var metrics: [(name: String, summary: MetricSummary)]
    /// Whether the loads were warm: made again in the same page, its HTTP cache and web process
    /// kept (`headway load --repeat N --warm`), rather than cold.
    public var warm = false

    /// Summarises each metric of `results` (loads of `url`), their visual metrics after their
    /// timing's; a metric a load did not report is left out of that metric's values.
    public init(url: URL, results: [LoadResult]) {
        self.url = url
        runs = results.count
        var names: [String] = []
        var values: [String: [Double]] = [:]
        for result in results {
            for (name, value) in result.timing.metrics + (result.visualMetrics?.metrics ?? []) {
                if values[name] == nil { names.append(name) }
                values[name, default: []].append(value)
            }
        }
        metrics = names.compactMap { name in MetricSummary(values[name]!).map { (name, $0) } }
    }

    /// The summary of the metric named `name` (as in `Timing`'s JSON), or nil.
    public subscript(_ name: String) -> MetricSummary? { metrics.first { $0.name == name }?.summary }

    /// Equal when URL, runs and every metric's summary are.
    public static func == (a: TimingSummary, b: TimingSummary) -> Bool {
        a.url == b.url && a.runs == b.runs && a.warm == b.warm && a.metrics.map(\.name) == b.metrics.map(\.name)
            && a.metrics.map(\.summary) == b.metrics.map(\.summary)
    }

    private enum CodingKeys: String, CodingKey { case url, runs, warm, metrics }

    /// `url`, `runs`, `warm` (only when true), and `metrics`: each metric's name to its summary,
    /// in `Timing` order.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(url, forKey: .url)
        try c.encode(runs, forKey: .runs)
        if warm { try c.encode(true, forKey: .warm) }
        var byName = c.nestedContainer(keyedBy: JSONKey.self, forKey: .metrics)
        for metric in metrics { try byName.encode(metric.summary, forKey: JSONKey(metric.name)) }
    }
}

extension Browser {
    /// Loads `url` `runs` times cold, each in a fresh page after clearing all website data,
    /// and summarises the timing. Throws the first failed load's `HeadwayError` (see
    /// `Page.load`); cancelling the task stops the current load and throws `CancellationError`.
    ///
    /// ```swift
    /// let summary = try await browser.measure(url, runs: 5)
    /// #expect(summary["loadEventEnd"]!.median < 2000)
    /// ```
    public func measure(
        _ url: URL,
        runs: Int,
        timeout: Duration = .seconds(30)
    ) async throws -> (summary: TimingSummary, results: [LoadResult]) {
        var results: [LoadResult] = []
        for _ in 0..<max(1, runs) {
            await clearWebsiteData()
            try Task.checkCancellation()
            let page = try newPage()
            defer { page.close() }
            results.append(try await page.load(url, timeout: timeout))
        }
        return (TimingSummary(url: url, results: results), results)
    }
}
