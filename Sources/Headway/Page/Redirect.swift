public import Foundation

/// One hop of a load: a server redirect (3xx) or a client redirect, where the page navigated
/// itself during its load or right after it (`location.replace`, `location.href = …`,
/// `<meta http-equiv=refresh>` of at most one second).
public struct Redirect: Sendable, Codable, Equatable {
    public enum Kind: String, Sendable, Codable {
        /// A 3xx response with a `Location`.
        case http
        /// A navigation the page started itself.
        case client
    }

    public var from: URL
    public var to: URL
    public var kind: Kind

    public init(from: URL, to: URL, kind: Kind) {
        self.from = from
        self.to = to
        self.kind = kind
    }
}
