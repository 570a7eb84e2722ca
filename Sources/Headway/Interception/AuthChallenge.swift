public import Foundation

/// A server's (or a proxy's) request for credentials, held for the page's authentication
/// handler (`Page.setAuthenticationHandler(_:)`) until it answers.
public struct AuthChallenge: Sendable, Equatable {
    /// The URL of the request that was challenged.
    public var url: URL
    /// The scheme the server asks for: `Basic`, `Digest`, `NTLM`, `Negotiate`, or another.
    public var scheme: String
    /// The realm the server named, or "".
    public var realm: String
    /// Whether a proxy asks (407) rather than the server (401).
    public var isProxy: Bool
    /// Whether credentials given for this request were refused already.
    public var isRetry: Bool
}

/// What an authentication handler answers.
public enum AuthAnswer: Sendable, Equatable {
    /// Send these credentials.
    case credentials(user: String, password: String)
    /// What Headway does without a handler: the configured credentials
    /// (`Browser.Configuration.credentials`) once, else none, so the server's 401 page loads.
    case `default`
    /// Send none: the server's 401 (or 407) page loads.
    case withoutCredentials
    /// Give up the request: its load fails.
    case cancel
}

/// Answers each challenge a page meets; the request waits until it returns, at most
/// `Limits.heldRequest`, after which its task is cancelled and the answer is `.default`.
public typealias AuthenticationHandler = @Sendable @EngineActor (Page, AuthChallenge) async -> AuthAnswer
