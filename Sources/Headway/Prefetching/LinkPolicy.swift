import Foundation

// Decides which links may be prefetched, and in which order.
struct LinkPolicy {
    var configuration: BoosterConfiguration

    // Path words that suggest a link acts rather than shows.
    static let sideEffectWords = ["logout", "log-out", "signout", "sign-out", "login", "log-in", "signin", "sign-in",
                                  "cart", "basket", "checkout", "admin", "delete", "unsubscribe"]

    // A link as the extraction script reports it.
    struct Link: Sendable, Equatable, Decodable {
        // Where the link came from, most likely to be followed first.
        enum Source: String, Sendable, Decodable, CaseIterable {
            /// `<link rel=next|prefetch|prerender>` or a speculation rule.
            case declared
            /// An anchor visible in the first viewport.
            case viewport
            /// Any other anchor.
            case document

            var rank: Int { Self.allCases.firstIndex(of: self)! }
        }

        var href: String
        var source = Source.document
        var download = false
        var nofollow = false
        var optOut = false
    }

    // The pages to prefetch from a page's links, and what was left out.
    struct Selection: Equatable {
        // In the order to fetch them: declared, then viewport, then document order.
        var pages: [URL] = []
        // Links already cached or in flight, which the run may join but not fetch.
        var known: [URL] = []
        var leftOut = LinksLeftOut()
    }

    // Orders `links` by source, keeps those the policy allows and `isKnown` does not (each
    // URL once), up to the page cap, and counts every other link under its reason.
    func select(_ links: [Link], page: URL, isKnown: (URL) -> Bool = { _ in false }) -> Selection {
        let ranked = links.enumerated().sorted { a, b in
            (a.element.source.rank, a.offset) < (b.element.source.rank, b.offset)
        }
        var seen: Set<URL> = [AssetExtractor.resolve(page.absoluteString, against: page) ?? page]
        var selection = Selection()
        for link in ranked.map(\.element) {
            if let reason = markerReason(link) {
                selection.leftOut[reason] += 1
                continue
            }
            let resolved = AssetExtractor.resolve(link.href, against: page)
            guard let url = resolved, isHTTP(url) else {
                selection.leftOut[.scheme] += 1
                continue
            }
            if let reason = reason(url, page: page) {
                selection.leftOut[reason] += 1
            } else if !seen.insert(url).inserted {
                selection.leftOut[.duplicate] += 1
            } else if isKnown(url) {
                selection.leftOut[.alreadyPrefetched] += 1
                selection.known.append(url)
            } else if selection.pages.count >= configuration.maxPagesPerPage {
                selection.leftOut[.cap] += 1
            } else {
                selection.pages.append(url)
            }
        }
        return selection
    }

    // Whether `url` may be fetched for a page at `page` (hosts, schemes, query strings, paths).
    func allows(_ url: URL, page: URL, isSubresource: Bool = false) -> Bool {
        isHTTP(url) && reason(url, page: page, isSubresource: isSubresource) == nil
    }

    // Why an http(s) `url` may not be fetched for a page at `page`, or nil when it may.
    func reason(_ url: URL, page: URL, isSubresource: Bool = false) -> LinksLeftOut.Reason? {
        guard let host = url.host?.lowercased() else { return .scheme }
        guard configuration.allHosts || host == page.host?.lowercased() || configuration.extraHosts.contains(host)
        else {
            return .host
        }
        if isSubresource { return nil }
        if url.query != nil, !configuration.allowQueryStrings { return .query }
        return Self.acts(url) ? .sideEffect : nil
    }

    // Whether a prefetch for a page at `page` may follow a redirect to `url`: the policy allows
    // it, and no redirect, not even a subresource's, goes to a path that acts (`/logout`).
    func allowsRedirect(to url: URL, page: URL, isPage: Bool) -> Bool {
        allows(url, page: page, isSubresource: !isPage) && !Self.acts(url)
    }

    // Whether `url`'s path has a word that suggests it acts rather than shows.
    static func acts(_ url: URL) -> Bool {
        let path = url.path.lowercased()
        return sideEffectWords.contains { word in
            path.split(separator: "/").contains { $0 == word || $0.hasPrefix(word + ".") }
        }
    }

    private func markerReason(_ link: Link) -> LinksLeftOut.Reason? {
        link.download ? .download : link.nofollow ? .nofollow : link.optOut ? .optOut : nil
    }

    private func isHTTP(_ url: URL) -> Bool {
        ["http", "https"].contains(url.scheme?.lowercased() ?? "")
    }
}
