public import Foundation

/// A cookie to set in a browser before it loads anything (`Browser.Configuration.cookies`), or one
/// read, added or deleted later (`Browser.cookies(for:)`, `addCookie`, `deleteCookie`).
public struct Cookie: Sendable, Equatable, Codable {
    /// Which cross-site requests carry the cookie (the `SameSite` attribute).
    public enum SameSite: String, Sendable, Codable, CaseIterable {
        /// Sent with cross-site requests too.
        case none = "None"
        /// Withheld from cross-site subresources, sent on cross-site top-level navigations.
        case lax = "Lax"
        /// Sent with same-site requests only.
        case strict = "Strict"
    }

    /// The cookie's name.
    public var name: String
    /// The cookie's value, sent as given.
    public var value: String
    /// The host it is sent to. A leading dot (".example.com") sends it to subdomains too.
    public var domain: String
    /// The path prefix it is sent for.
    public var path: String
    /// Sent only over https.
    public var secure: Bool
    /// Hidden from `document.cookie`.
    public var httpOnly: Bool
    /// When it expires; nil for a session cookie.
    public var expires: Date?
    /// Its `SameSite` attribute; nil leaves it to the engine's default.
    public var sameSite: SameSite?

    /// A cookie for `domain`; by default for every path, over http and https, visible to
    /// scripts, for the session.
    public init(name: String, value: String, domain: String, path: String = "/", secure: Bool = false,
                httpOnly: Bool = false, expires: Date? = nil, sameSite: SameSite? = nil) {
        self.name = name
        self.value = value
        self.domain = domain
        self.path = path
        self.secure = secure
        self.httpOnly = httpOnly
        self.expires = expires
        self.sameSite = sameSite
    }
}
