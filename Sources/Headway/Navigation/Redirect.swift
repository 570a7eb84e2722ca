public import Foundation

/// One hop of a load: a server redirect (3xx) or a client redirect, where the page navigated
/// itself during its load or right after it (`location.replace`, `location.href = …`,
/// `<meta http-equiv=refresh>` of at most one second).
public struct Redirect: Sendable, Codable, Equatable {
    /// Who redirected.
    public enum Kind: String, Sendable, Codable {
        /// A 3xx response with a `Location`.
        case http
        /// A navigation the page started itself.
        case client
    }

    /// The URL redirected from.
    public var from: URL
    /// The URL redirected to.
    public var to: URL
    /// A server's redirect (3xx) or the page's own (script, meta refresh).
    public var kind: Kind

    /// A redirect from `from` to `to`.
    public init(from: URL, to: URL, kind: Kind) {
        self.from = from
        self.to = to
        self.kind = kind
    }
}
