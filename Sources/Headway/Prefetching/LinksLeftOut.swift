/// Links found on loaded pages that the booster did not prefetch as pages, counted by reason.
/// Each link counts once, under the first reason that applies, in the order of `Reason`, so
/// `linksFound == linksEligible + linksLeftOut.total`. Encodes as an object with every reason
/// as a key, zeros included.
///
/// ```swift
/// let skippedAsActions = browser.prefetchStats?.linksLeftOut[.sideEffect]
/// ```
public struct LinksLeftOut: Sendable, Equatable, Codable {
    /// Why a link was not prefetched.
    public enum Reason: String, CaseIterable, Sendable, CodingKey {
        /// The anchor has a `download` attribute.
        case download
        /// The anchor has `rel=nofollow`.
        case nofollow
        /// The anchor is inside `[data-no-prefetch]` or has `rel=noprefetch`.
        case optOut
        /// Not an http or https URL (`mailto:`, `javascript:`, `tel:`, ...).
        case scheme
        /// On a host the configuration does not allow.
        case host
        /// Has a query string and `allowQueryStrings` is off.
        case query
        /// A path word suggests the link acts (logout, cart, admin, ...).
        case sideEffect
        /// The page itself, or the same URL (fragment aside) as a link chosen before it.
        case duplicate
        /// Already in the prefetch cache or being fetched: not fetched again.
        case alreadyPrefetched
        /// Not hinted by the page, and `eagerness` is `.conservative`, or `.moderate` on a page
        /// that hints at other links (`rel=next`, speculation rules).
        case eagerness
        /// Beyond `maxPagesPerPage`.
        case cap
        /// The page's byte budget ran out before its turn.
        case budget
        /// A navigation, or a settle timeout, stopped the run before its turn.
        case cancelled
        /// Chosen, and still waiting for its turn in the prefetch running now: stats read later
        /// count it as eligible, or under the reason it was left out for.
        case queued
    }

    private var counts: [Reason: Int] = [:]

    /// No links left out.
    public init() {}

    /// How many links were left out for `reason`.
    public subscript(reason: Reason) -> Int {
        get { counts[reason] ?? 0 }
        set { counts[reason] = newValue == 0 ? nil : newValue }
    }

    /// Links left out for any reason.
    public var total: Int { counts.values.reduce(0, +) }

    static func + (lhs: LinksLeftOut, rhs: LinksLeftOut) -> LinksLeftOut {
        var sum = lhs
        for (reason, count) in rhs.counts { sum[reason] += count }
        return sum
    }

    /// Decodes the JSON `encode(to:)` writes; a missing reason counts 0.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Reason.self)
        for reason in Reason.allCases {
            self[reason] = try container.decodeIfPresent(Int.self, forKey: reason) ?? 0
        }
    }

    /// Encodes every reason, in `Reason` order, with its count (0 included).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Reason.self)
        for reason in Reason.allCases { try container.encode(self[reason], forKey: reason) }
    }
}
