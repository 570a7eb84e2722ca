import Foundation

/// How one page load's requests were answered by the booster's scheme handler.
public struct PrefetchLoadStats: Sendable, Equatable, Codable {
    /// Served from the prefetch cache.
    public var fromCache = 0
    /// Joined a prefetch that was still in flight.
    public var joined = 0
    /// Fetched from the network (not prefetched, or not cacheable).
    public var fetched = 0
    /// Stale cached responses the server confirmed with a 304 (conditional revalidation with
    /// `If-None-Match` / `If-Modified-Since`), then answered from the cache.
    public var revalidated = 0
    /// The longest time the handler took to answer a request from the cache: from WebKit's
    /// request to handing WebKit the response (JSON: `slowestCacheAnswerMs`, in milliseconds).
    public var slowestCacheAnswer: Duration = .zero
    /// Whether the load showed a page the booster had prerendered in a hidden view
    /// (`BoosterConfiguration.prerender`): the counts above are then those of the hidden load,
    /// `Timing`'s Navigation Timing figures are that load's, and `started`, `committed` and
    /// `finished` are when the page was shown.
    public var prerendered = false
    /// Whether the main document was fetched from the start of the navigation (or
    /// `Browser.preload`), while WebKit's web process got ready, rather than when it asked.
    public var documentFetchedEarly = false
    /// Whether the page came from the prefetch: its document from a prefetched entry or a
    /// prefetch in flight, or a prerendered view.
    public var hit = false
    /// Bytes the booster prefetched between the previous load and this one (the prefetch that
    /// the previous page's links started).
    public var bytesPrefetched = 0
    /// Bytes of this load's responses served from prefetched entries.
    public var bytesUsed = 0

    /// All counts 0.
    public init() {}

    private enum CodingKeys: String, CodingKey {
        case fromCache, joined, fetched, revalidated, slowestCacheAnswerMs, hit, bytesPrefetched, bytesUsed, prerendered
        case documentFetchedEarly
    }

    /// Encodes the counts and `hit`, and `prerendered` and `documentFetchedEarly` only when true.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(fromCache, forKey: .fromCache)
        try c.encode(joined, forKey: .joined)
        try c.encode(fetched, forKey: .fetched)
        try c.encode(revalidated, forKey: .revalidated)
        try c.encode(JSONMilliseconds.rounded(slowestCacheAnswer), forKey: .slowestCacheAnswerMs)
        try c.encode(hit, forKey: .hit)
        try c.encode(bytesPrefetched, forKey: .bytesPrefetched)
        try c.encode(bytesUsed, forKey: .bytesUsed)
        if prerendered { try c.encode(true, forKey: .prerendered) }
        if documentFetchedEarly { try c.encode(true, forKey: .documentFetchedEarly) }
    }

    /// Decodes the JSON `headway load` prints; `prerendered` and `documentFetchedEarly` are false
    /// when absent.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        fromCache = try c.decode(Int.self, forKey: .fromCache)
        joined = try c.decode(Int.self, forKey: .joined)
        fetched = try c.decode(Int.self, forKey: .fetched)
        revalidated = try c.decodeIfPresent(Int.self, forKey: .revalidated) ?? 0
        let slowest = try c.decodeIfPresent(Double.self, forKey: .slowestCacheAnswerMs) ?? 0
        slowestCacheAnswer = Duration(clampedMilliseconds: slowest)
        hit = try c.decodeIfPresent(Bool.self, forKey: .hit) ?? false
        bytesPrefetched = try c.decodeIfPresent(Int.self, forKey: .bytesPrefetched) ?? 0
        bytesUsed = try c.decodeIfPresent(Int.self, forKey: .bytesUsed) ?? 0
        prerendered = try c.decodeIfPresent(Bool.self, forKey: .prerendered) ?? false
        documentFetchedEarly = try c.decodeIfPresent(Bool.self, forKey: .documentFetchedEarly) ?? false
    }
}

/// What the booster did over a whole run.
public struct PrefetchRunStats: Sendable, Equatable, Codable {
    /// Links the extraction script found on loaded pages.
    public var linksFound = 0
    /// Links the booster prefetched as pages, or began to (an answer may still be too large or
    /// not storable: see `skipped`).
    public var linksEligible = 0
    /// The other links found, by the reason they were left out.
    public var linksLeftOut = LinksLeftOut()
    /// Pages the booster fetched into the cache.
    public var pagesPrefetched = 0
    /// Subresources of those pages (stylesheets, scripts, images, fonts) it fetched into the cache.
    public var resourcesPrefetched = 0
    /// Bytes of prefetched responses kept in the cache.
    public var bytesPrefetched = 0
    /// Prefetched bytes that no page load used.
    public var bytesUnused = 0
    /// Prefetched bytes that page loads used (each response counted once).
    public var bytesUsed = 0
    /// Loads whose page came from the prefetch (`PrefetchLoadStats.hit`).
    public var hits = 0
    /// Stale prefetched responses the server confirmed with a 304 when prefetched again.
    public var revalidated = 0
    /// Prefetches skipped by the byte budget or the per-response cap, or not storable.
    public var skipped = 0

    /// All counts 0.
    public init() {}
}
