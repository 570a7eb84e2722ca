public import Foundation

/// What one page load produced.
public struct LoadResult: Sendable, Codable, Equatable {
    /// The URL that was asked for.
    public var url: URL
    /// The URL the page ended on, after redirects.
    public var finalURL: URL
    /// The main document's HTTP status, or nil when the scheme has none (file:, about:).
    public var status: Int?
    /// The page's title after the load (`document.title`).
    public var title: String
    /// When each phase of the load happened.
    public var timing: Timing
    /// When the load was asked for, by the wall clock and `CLOCK_MONOTONIC` (nil in results made
    /// with `init`): the instant `timing`'s phase times count from.
    public var startTime: LoadStartTime?
    /// The subresources the page loaded, from Resource Timing, and those blocked.
    public var resources: ResourceSummary
    /// How the booster answered this load's requests, or nil when the booster is off.
    public var prefetch: PrefetchLoadStats?
    /// The hops from `url` to `finalURL`, in order: server redirects and client redirects.
    public var redirects: [Redirect] = []
    /// JavaScript dialogs the page opened during the load, with Headway's answers.
    public var dialogs: [JavaScriptDialog] = []
    /// Every request of the load, with Browser.Configuration.recordsResources on (else nil):
    /// what `HARLog` writes. Not part of this type's JSON.
    public var resourceEntries: [ResourceEntry]?
    /// True for a same-document navigation (a fragment, `history.pushState`, a history entry of
    /// the same document): the figures are the document's load, `finalURL` the new URL. Not part
    /// of this type's JSON.
    public var isSameDocument = false
    /// The frames the view showed, with a filmstrip asked of `Page.load` (else nil). Not part of
    /// this type's JSON.
    public var filmstrip: Filmstrip?
    /// What `filmstrip` shows of the load's visual progress, or nil without one.
    public var visualMetrics: VisualMetrics?

    /// A result with each field given, for tests of code that handles results.
    public init(url: URL, finalURL: URL, status: Int?, title: String, timing: Timing,
                resources: ResourceSummary = ResourceSummary(count: 0, transferBytes: 0, encodedBytes: 0),
                prefetch: PrefetchLoadStats? = nil, redirects: [Redirect] = [], dialogs: [JavaScriptDialog] = []) {
        self.url = url
        self.finalURL = finalURL
        self.status = status
        self.title = title
        self.timing = timing
        self.resources = resources
        self.prefetch = prefetch
        self.redirects = redirects
        self.dialogs = dialogs
    }

    private enum CodingKeys: String, CodingKey {
        case url, finalURL, redirects, status, title, startTime, timing, resources, prefetch, dialogs, visualMetrics
    }

    /// The JSON `headway load` prints for a load: `status` is `null` when there is none, and
    /// `prefetch` is there only with the booster on, `startTime` only when known.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(url, forKey: .url)
        try c.encode(finalURL, forKey: .finalURL)
        try c.encode(redirects, forKey: .redirects)
        try c.encode(status, forKey: .status)
        try c.encode(title, forKey: .title)
        try c.encodeIfPresent(startTime, forKey: .startTime)
        try c.encode(timing, forKey: .timing)
        try c.encode(resources, forKey: .resources)
        try c.encodeIfPresent(prefetch, forKey: .prefetch)
        try c.encode(dialogs, forKey: .dialogs)
        try c.encodeIfPresent(visualMetrics, forKey: .visualMetrics)
    }

    /// Decodes the JSON `encode(to:)` writes (and `headway load` prints); missing lists are empty.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            url: try c.decode(URL.self, forKey: .url),
            finalURL: try c.decode(URL.self, forKey: .finalURL),
            status: try c.decodeIfPresent(Int.self, forKey: .status),
            title: try c.decode(String.self, forKey: .title),
            timing: try c.decode(Timing.self, forKey: .timing),
            resources: try c.decode(ResourceSummary.self, forKey: .resources),
            prefetch: try c.decodeIfPresent(PrefetchLoadStats.self, forKey: .prefetch),
            redirects: try c.decodeIfPresent([Redirect].self, forKey: .redirects) ?? [],
            dialogs: try c.decodeIfPresent([JavaScriptDialog].self, forKey: .dialogs) ?? []
        )
        startTime = try c.decodeIfPresent(LoadStartTime.self, forKey: .startTime)
        visualMetrics = try c.decodeIfPresent(VisualMetrics.self, forKey: .visualMetrics)
    }
}

/// When each phase of a page load happened.
///
/// The rule for time in Headway: a time Headway measures itself is a `Duration` on its monotonic
/// clock (`started`, `committed` and `finished`, measured from the load request); a figure the
/// page reports (W3C Navigation Timing and Paint Timing, relative to the navigation's start,
/// `performance.timeOrigin`) stays the `Double` milliseconds the page gave. JSON has both as
/// milliseconds, rounded to three decimals.
public struct Timing: Sendable, Codable, Equatable {
    /// When WebKit started the navigation, after the load request.
    public var started: Duration
    /// When the first bytes of the document were committed, after the load request.
    public var committed: Duration
    /// When WebKit reported the load finished, after the load request (zero for a load that ended
    /// at DOMContentLoaded first).
    public var finished: Duration
    /// Navigation Timing's `responseStart`: ms from the navigation's start to the response's first byte
    /// (TTFB).
    public var responseStart: Double
    /// Navigation Timing's `domInteractive`: ms from the navigation's start to the document being
    /// parsed.
    public var domInteractive: Double
    /// Navigation Timing's `domContentLoadedEventEnd`: ms from the navigation's start to the end of
    /// DOMContentLoaded's handlers.
    public var domContentLoadedEventEnd: Double
    /// Navigation Timing's `loadEventEnd`: ms from the navigation's start to the end of the load
    /// event's handlers (0 when it had not come).
    public var loadEventEnd: Double
    /// Paint Timing's first contentful paint in ms, or nil where the engine did not report one.
    public var firstContentfulPaint: Double?

    /// Every metric by its JSON name, in milliseconds as JSON has them, for summaries; unavailable
    /// ones are left out.
    public var metrics: [(name: String, value: Double)] {
        var list: [(String, Double)] = [
            ("started", started.milliseconds), ("committed", committed.milliseconds),
            ("finished", finished.milliseconds),
            ("responseStart", responseStart), ("domInteractive", domInteractive),
            ("domContentLoadedEventEnd", domContentLoadedEventEnd), ("loadEventEnd", loadEventEnd),
        ]
        if let firstContentfulPaint { list.append(("firstContentfulPaint", firstContentfulPaint)) }
        return list
    }

    private enum CodingKeys: String, CodingKey {
        case started, committed, finished, responseStart, domInteractive, domContentLoadedEventEnd, loadEventEnd
        case firstContentfulPaint
    }

    /// Encodes every field in milliseconds rounded to three decimals, `firstContentfulPaint` as
    /// `null` when there is none.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        for (name, value) in metrics {
            try c.encode(JSONMilliseconds.rounded(value), forKey: CodingKeys(rawValue: name)!)
        }
        if firstContentfulPaint == nil { try c.encodeNil(forKey: .firstContentfulPaint) }
    }

    /// Decodes the JSON `encode(to:)` writes: every field in milliseconds.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func ms(_ key: CodingKeys) throws -> Double { try c.decode(Double.self, forKey: key) }
        self.init(started: Duration(clampedMilliseconds: try ms(.started)),
                  committed: Duration(clampedMilliseconds: try ms(.committed)),
                  finished: Duration(clampedMilliseconds: try ms(.finished)),
                  responseStart: try ms(.responseStart), domInteractive: try ms(.domInteractive),
                  domContentLoadedEventEnd: try ms(.domContentLoadedEventEnd), loadEventEnd: try ms(.loadEventEnd),
                  firstContentfulPaint: try c.decodeIfPresent(Double.self, forKey: .firstContentfulPaint))
    }

    /// Timing with each field given: Headway's phase times as durations, the page's figures in ms.
    public init(started: Duration, committed: Duration, finished: Duration, responseStart: Double,
                domInteractive: Double, domContentLoadedEventEnd: Double, loadEventEnd: Double,
                firstContentfulPaint: Double? = nil) {
        self.started = started
        self.committed = committed
        self.finished = finished
        self.responseStart = responseStart
        self.domInteractive = domInteractive
        self.domContentLoadedEventEnd = domContentLoadedEventEnd
        self.loadEventEnd = loadEventEnd
        self.firstContentfulPaint = firstContentfulPaint
    }
}

/// A summary of the page's Resource Timing entries.
public struct ResourceSummary: Sendable, Codable, Equatable {
    /// Subresources the page loaded.
    public var count: Int
    /// Bytes transferred for them, as Resource Timing reports (0 where the engine hides it).
    public var transferBytes: Int
    /// Encoded body bytes of those resources.
    public var encodedBytes: Int
    /// Requests that `Browser.Configuration.blockedURLPatterns` kept off the network during the
    /// load (not part of `count`).
    public var blocked: Int
    /// Whether the page's Resource Timing buffer filled (250 entries unless the page asks for
    /// more; 10,000 with `Browser.Configuration.recordsResources`) and the browser dropped
    /// entries: `count` is then every request Headway saw the page start, in all its frames, while
    /// `transferBytes` and `encodedBytes` cover only the entries the buffer kept.
    public var truncated = false
    /// With the booster or an emulated network, every request the page made (its document left
    /// out, at most 10,000), with where each answer came from; nil otherwise. `count` and the byte
    /// figures then come from these records (`transferBytes`: those from the network).
    public var handled: [HandledResource]?

    /// A summary with each count given.
    public init(count: Int, transferBytes: Int, encodedBytes: Int, blocked: Int = 0, truncated: Bool = false) {
        self.count = count
        self.transferBytes = transferBytes
        self.encodedBytes = encodedBytes
        self.blocked = blocked
        self.truncated = truncated
    }

    private enum CodingKeys: String, CodingKey { case count, transferBytes, encodedBytes, blocked, truncated, handled }

    /// Decodes a summary; `blocked` and `truncated` may be missing (output of older versions).
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            count: try c.decode(Int.self, forKey: .count),
            transferBytes: try c.decode(Int.self, forKey: .transferBytes),
            encodedBytes: try c.decode(Int.self, forKey: .encodedBytes),
            blocked: try c.decodeIfPresent(Int.self, forKey: .blocked) ?? 0,
            truncated: try c.decodeIfPresent(Bool.self, forKey: .truncated) ?? false
        )
        handled = try c.decodeIfPresent([HandledResource].self, forKey: .handled)
    }
}
