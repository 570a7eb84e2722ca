import Foundation

/// Settings of the prefetch booster. Pass one in `Browser.Configuration.booster` to turn it on.
public struct BoosterConfiguration: Sendable, Equatable {
    /// Hosts to prefetch besides the page's own host.
    public var extraHosts: Set<String> = []
    /// Prefetch links on every host (can break ads and analytics; off by default).
    public var allHosts = false
    /// Prefetch links with a query string (off by default: queries often act).
    public var allowQueryStrings = false
    /// At most this many linked pages per page (stage 1).
    public var maxPagesPerPage = 20
    /// At most this many prefetch requests at once.
    public var concurrency = 4
    /// Stop prefetching for a page after this many bytes.
    public var byteBudget = 32 << 20
    /// Skip any single response larger than this.
    public var maxResponseBytes = 4 << 20
    /// The prefetch cache's size in bytes (least recently used entries go first).
    public var cacheBytes = 64 << 20

    public init() {}
}

/// Decides which links may be prefetched.
struct LinkPolicy {
    var configuration: BoosterConfiguration

    /// Path words that suggest a link acts rather than shows.
    static let sideEffectWords = ["logout", "log-out", "signout", "sign-out", "login", "log-in", "signin", "sign-in",
                                  "cart", "basket", "checkout", "admin", "delete", "unsubscribe"]

    /// A link as the extraction script reports it.
    struct Link: Sendable, Equatable, Decodable {
        var href: String
        var download = false
        var nofollow = false
        var optOut = false
    }

    /// The eligible page URLs among `links`, in order, deduplicated, capped.
    func eligible(_ links: [Link], page: URL) -> [URL] {
        var seen: Set<URL> = [page]
        var result: [URL] = []
        for link in links where !link.download && !link.nofollow && !link.optOut {
            guard let url = AssetExtractor.resolve(link.href, against: page), allows(url, page: page),
                  seen.insert(url).inserted else { continue }
            result.append(url)
            if result.count >= configuration.maxPagesPerPage { break }
        }
        return result
    }

    /// Whether `url` may be fetched for a page at `page` (hosts, schemes, query strings, paths).
    func allows(_ url: URL, page: URL, isSubresource: Bool = false) -> Bool {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host?.lowercased() else { return false }
        guard configuration.allHosts || host == page.host?.lowercased() || configuration.extraHosts.contains(host) else {
            return false
        }
        if isSubresource { return true }
        if url.query != nil, !configuration.allowQueryStrings { return false }
        let path = url.path.lowercased()
        return !Self.sideEffectWords.contains { word in
            path.split(separator: "/").contains { $0 == word || $0.hasPrefix(word + ".") }
        }
    }
}
