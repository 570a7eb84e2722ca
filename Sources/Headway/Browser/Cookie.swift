public import Foundation

/// A cookie to set in a browser before it loads anything (`Browser.Configuration.cookies`).
public struct Cookie: Sendable, Equatable, Codable {
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

    /// A cookie for `domain`; by default for every path, over http and https, visible to
    /// scripts, for the session.
    public init(name: String, value: String, domain: String, path: String = "/", secure: Bool = false,
                httpOnly: Bool = false, expires: Date? = nil) {
        self.name = name
        self.value = value
        self.domain = domain
        self.path = path
        self.secure = secure
        self.httpOnly = httpOnly
        self.expires = expires
    }

    /// Reads a Netscape `cookies.txt`, as curl (`-b`/`-c`) and wget write and read it: one cookie
    /// per line, seven tab-separated fields (domain, include subdomains, path, secure, expiry in
    /// Unix seconds or 0 for a session cookie, name, value). Lines starting with `#` are
    /// comments, except `#HttpOnly_` before a domain; blank lines are skipped. Throws
    /// `.invalidArgument` naming the first line it cannot read.
    public static func parseNetscape(_ text: String, source: String = "cookies file") throws -> [Cookie] {
        var cookies: [Cookie] = []
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            var line = String(raw)
            var httpOnly = false
            if line.hasPrefix("#HttpOnly_") {
                httpOnly = true
                line.removeFirst("#HttpOnly_".count)
            } else if line.hasPrefix("#") || line.allSatisfy(\.isWhitespace) {
                continue
            }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 7, !fields[0].isEmpty, !fields[5].isEmpty,
                  let expiry = Int64(fields[4].trimmingCharacters(in: .whitespaces)), expiry >= 0 else {
                throw HeadwayError(.invalidArgument, "\(source) line \(index + 1) is not a Netscape cookie line "
                                   + "(domain, subdomains, path, secure, expiry, name, value, tab-separated)")
            }
            var domain = fields[0].lowercased()
            if fields[1].uppercased() == "TRUE", !domain.hasPrefix(".") { domain = "." + domain }
            cookies.append(
                Cookie(
                    name: fields[5],
                    value: fields[6],
                    domain: domain,
                    path: fields[2].isEmpty ? "/" : fields[2],
                    secure: fields[3].uppercased() == "TRUE",
                    httpOnly: httpOnly,
                    expires: expiry == 0 ? nil : Date(timeIntervalSince1970: TimeInterval(expiry))
                )
            )
        }
        return cookies
    }
}
