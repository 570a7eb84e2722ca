public import Foundation

/// Settings of the prefetch booster. Pass one in `Browser.Configuration.booster` to turn it on.
public struct BoosterConfiguration: Sendable, Equatable {
    /// Hosts to prefetch besides the page's own host.
    public var extraHosts: Set<String> = []
    /// Prefetch links on every host (can break ads and analytics; off by default).
    public var allHosts = false
    /// Prefetch links with a query string (off by default: queries often act).
    public var allowQueryStrings = false
    /// At most this many linked pages per page (stage 1); the byte budget sets the real limit.
    public var maxPagesPerPage = 50
    /// Which links are prefetched: those the page hints at only; those, or on a page that hints at
    /// none the likeliest within the byte budget (the default); or every allowed link.
    public var eagerness = PrefetchEagerness.moderate
    /// At most this many prefetch requests at once, 1 to 256.
    public var concurrency = 4
    /// Stop prefetching for a page after this many bytes: the pages most likely to be followed,
    /// then their subresources, come first. An explicit budget caps every eagerness, hinted
    /// links included. nil (the default): `.moderate` sizes the budget to the page, about 4 times
    /// what its likeliest next page needs (hinted links are fetched even past it);
    /// `.conservative` and `.eager` stop at `defaultByteCeiling`.
    public var byteBudget: Int?
    /// Skip any single response larger than this.
    public var maxResponseBytes = 4 << 20
    /// Give up on a prefetch request after this long in all: a server that never
    /// answers, or drips its body, cannot hold one of the `concurrency` slots for longer.
    public var requestTimeout: Duration = .seconds(15)
    /// The prefetch cache's size in bytes (least recently used entries go first).
    public var cacheBytes = 64 << 20
    /// How many of the likeliest next pages to load ahead in hidden web views, 0 to 20 (0, the
    /// default, for none). A `Page.load` of one of them shows its already rendered page at once
    /// (`PrefetchLoadStats.prerendered`). Each is a web process of its own; hidden pages follow
    /// the prefetch policy and are dropped when they navigate, open a dialog or fail.
    public var prerender = 0

    /// The most bytes a page's prefetch may spend when `byteBudget` is nil (32 MB).
    public static let defaultByteCeiling = 32 << 20
    /// The most prefetch requests at once `concurrency` may ask for.
    public static let mostConcurrent = 256
    /// The most hidden web views `prerender` may ask for: `Limits.prerenderedPages`' upper bound.
    public static let mostPrerendered = Limits.prerenderedPages.upperBound
    /// Keep the cache on disk in this directory too, between runs and shared by processes
    /// (nil: memory only). Responses the booster stores, and those its handler fetches for pages
    /// (2xx GET, storable, at most `maxResponseBytes`), are written there; a lookup that misses
    /// the memory cache reads it. The directory is created if needed; one that is not empty
    /// must be a Headway cache (see `CacheDirectory`). Writes run in the background: await
    /// `Browser.flushCacheDirectory()` before the process exits.
    public var cacheDirectory: URL?
    /// The disk cache's size in bytes: past it, the least recently used entries are deleted.
    public var cacheDirectoryBytes = 256 << 20

    /// The defaults: same host only, no query strings, moderate eagerness with a budget sized to
    /// the page (at most 32 MB), 4 requests at once, 4 MB per response, 15 s per request, a 64 MB
    /// cache, no disk cache (256 MB when one is set).
    public init() {}

    /// Where the booster looks for its web-process extension (`libHeadwayWebExtension.so`), in
    /// order. SwiftPM builds it into the library's resource bundle, `Headway_Headway.resources`,
    /// next to the executable; a deployed binary ships that folder beside itself, or sets
    /// `HEADWAY_WEB_EXTENSION` to the library's path. Without it, absolute http(s) subresource
    /// URLs go to the network instead of the booster, and one warning says so.
    public static var webExtensionLocations: [URL] { WebExtension.candidates() }
}

/// How eagerly the booster prefetches, in the words of the Speculation Rules API.
public enum PrefetchEagerness: String, Sendable, CaseIterable, Codable {
    /// Only the links the page hints at: speculation rules, `<link rel=next|prefetch|prerender>`.
    case conservative
    /// The hinted links only, on a page that hints (`rel=next`, speculation rules): it says where
    /// a reader goes next. On a page that does not, its likeliest link, then the next likeliest
    /// while the byte budget lasts.
    case moderate
    /// Every link the policy allows, up to `maxPagesPerPage` and the byte budget.
    case eager
}
