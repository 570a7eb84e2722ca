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
            /// `<link rel=next|prefetch|prerender>` or an immediate or eager speculation rule: a hint.
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
        // An anchor with `rel=next`.
        var next = false
        // Named by a moderate or conservative speculation rule (which waits for a pointer in a browser).
        var suggested = false

        var isHinted: Bool { source == .declared }

        init(href: String, source: Source = .document, download: Bool = false, nofollow: Bool = false,
             optOut: Bool = false, next: Bool = false, suggested: Bool = false) {
            self.href = href
            self.source = source
            self.download = download
            self.nofollow = nofollow
            self.optOut = optOut
            self.next = next
            self.suggested = suggested
        }

        private enum CodingKeys: String, CodingKey { case href, source, download, nofollow, optOut, next, suggested }

        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            href = try c.decode(String.self, forKey: .href)
            source = try c.decodeIfPresent(Source.self, forKey: .source) ?? .document
            download = try c.decodeIfPresent(Bool.self, forKey: .download) ?? false
            nofollow = try c.decodeIfPresent(Bool.self, forKey: .nofollow) ?? false
            optOut = try c.decodeIfPresent(Bool.self, forKey: .optOut) ?? false
            next = try c.decodeIfPresent(Bool.self, forKey: .next) ?? false
            suggested = try c.decodeIfPresent(Bool.self, forKey: .suggested) ?? false
        }
    }

    // What the extraction script returns: the links, and notes on the speculation rules it ignored.
    struct Found: Sendable, Decodable {
        var links: [Link]
        var notes: [String] = []
    }

    // The pages to prefetch from a page's links, and what was left out.
    struct Selection: Equatable {
        // In the order to fetch them: hinted in document order, then the others, likeliest first.
        var pages: [URL] = []
        // How many of `pages`, at the front, the page hinted at.
        var hinted = 0
        // Links already cached or in flight, which the run may join but not fetch.
        var known: [URL] = []
        var leftOut = LinksLeftOut()
    }

    // Orders `links` (hinted ones first, the others by `likelihood`), keeps those the policy
    // allows and `isKnown` does not (each URL once), up to the page cap (and only hinted ones
    // when conservative, or when moderate and the page hints: it said where a reader goes next),
    // and counts every other link under its reason.
    func select(_ links: [Link], page: URL, isKnown: (URL) -> Bool = { _ in false }) -> Selection {
        let count = links.count
        // Hinted links come first: a moderate page that hints at a page the policy allows (or
        // one already fetched) gets no other.
        var hintsTaken = 0
        var hintsOnly: Bool {
            configuration.eagerness == .conservative || (configuration.eagerness == .moderate && hintsTaken > 0)
        }
        let ranked = links.enumerated().map { offset, link in
            let score = link.isHinted ? 0 : likelihood(link, offset: offset, of: count, page: page)
            return (link: link, offset: offset, score: score)
        }.sorted { a, b in
            if a.link.isHinted != b.link.isHinted { return a.link.isHinted }
            return a.score != b.score ? a.score > b.score : a.offset < b.offset
        }
        var seen: Set<URL> = [AssetExtractor.resolve(page.absoluteString, against: page) ?? page]
        var selection = Selection()
        for link in ranked.map(\.link) {
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
                if link.isHinted { hintsTaken += 1 }
            } else if hintsOnly, !link.isHinted {
                selection.leftOut[.eagerness] += 1
            } else if selection.pages.count >= configuration.maxPagesPerPage {
                selection.leftOut[.cap] += 1
            } else {
                selection.pages.append(url)
                if link.isHinted {
                    selection.hinted += 1
                    hintsTaken += 1
                }
            }
        }
        return selection
    }

    // How likely a person is to follow an unhinted link, higher first: `rel=next` (100), a
    // moderate or conservative speculation rule (50), in the first viewport (20), in the same
    // folder as the page (10), less up to 10 for its place in the page (the first link 0, the
    // last nearly 10).
    func likelihood(_ link: Link, offset: Int, of count: Int, page: URL) -> Double {
        var score = 0.0
        if link.next { score += 100 }
        if link.suggested { score += 50 }
        if link.source == .viewport { score += 20 }
        if let url = AssetExtractor.resolve(link.href, against: page), Self.folder(url) == Self.folder(page) {
            score += 10
        }
        return score - 10 * Double(offset) / Double(max(1, count))
    }

    // The path up to its last "/": the section of a site a page is in.
    static func folder(_ url: URL) -> String {
        let path = url.path(percentEncoded: true)
        guard let slash = path.lastIndex(of: "/") else { return "/" }
        return (url.host?.lowercased() ?? "") + String(path[...slash])
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
