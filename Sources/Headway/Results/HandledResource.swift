public import Foundation

/// One request of a load that went through Headway's scheme handler (with the booster, or an
/// emulated network), where Resource Timing has no entry: where its answer came from, and when,
/// by Headway's own records.
public struct HandledResource: Sendable, Codable, Equatable {
    /// Where a request's answer came from.
    public enum Source: String, Sendable, Codable {
        /// The booster's cache (memory or disk): no request to the server.
        case cache
        /// A prefetch of it still in flight, which the request joined.
        case joined
        /// The network: the handler fetched it (or WebKit did, for a request off the handler).
        case network
    }

    /// The URL (the real one, not the mirror scheme's).
    public var url: URL
    /// Where its answer came from.
    public var source: Source
    /// The response's HTTP status (0 when there was none).
    public var status: Int
    /// When the request started, in ms from the load request (as `Timing.started`).
    public var startMs: Double
    /// From the request to its response headers, in ms, or nil when unknown.
    public var waitMs: Double?
    /// From the request to its end, in ms, or nil when it had not ended.
    public var durationMs: Double?
    /// The body's length as WebKit knew it (or from `Content-Length`), 0 when unknown.
    public var bytes: Int

    /// A record with each field given.
    public init(url: URL, source: Source, status: Int, startMs: Double, waitMs: Double?, durationMs: Double?,
                bytes: Int) {
        self.url = url
        self.source = source
        self.status = status
        self.startMs = startMs
        self.waitMs = waitMs
        self.durationMs = durationMs
        self.bytes = bytes
    }

    private enum CodingKeys: String, CodingKey { case url, source, status, startMs, waitMs, durationMs, bytes }

    /// Every member, the times rounded to three decimals, `waitMs` and `durationMs` `null` when unknown.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(url, forKey: .url)
        try c.encode(source, forKey: .source)
        try c.encode(status, forKey: .status)
        try c.encode(JSONMilliseconds.rounded(startMs), forKey: .startMs)
        try c.encode(waitMs.map(JSONMilliseconds.rounded), forKey: .waitMs)
        try c.encode(durationMs.map(JSONMilliseconds.rounded), forKey: .durationMs)
        try c.encode(bytes, forKey: .bytes)
    }
}
