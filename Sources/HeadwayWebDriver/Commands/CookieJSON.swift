import Foundation
import Headway

// A cookie as WebDriver writes it (https://www.w3.org/TR/webdriver2/#dfn-serialized-cookie) and
// reads it (Add Cookie's checks).
extension Cookie {
    var webDriverJSON: JSONValue {
        var json: [String: JSONValue] = [
            "name": .string(name), "value": .string(value), "path": .string(path), "domain": .string(domain),
            "secure": .bool(secure), "httpOnly": .bool(httpOnly), "sameSite": .string((sameSite ?? .none).rawValue),
        ]
        if let expires { json["expiry"] = .number(expires.timeIntervalSince1970.rounded(.down)) }
        return .object(json)
    }

    // The cookie Add Cookie's `fields` describe, for a document on `host`.
    init(webDriver fields: [String: JSONValue], host: String) throws(WebDriverError) {
        func invalid(_ key: String, _ shape: String) -> WebDriverError {
            WebDriverError(.invalidArgument, "the cookie's \"\(key)\" must be \(shape)")
        }
        func optional(_ key: String) -> JSONValue? { fields[key].flatMap { $0 == .null ? nil : $0 } }
        guard let name = fields["name"]?.stringValue else { throw invalid("name", "a string") }
        guard let value = fields["value"]?.stringValue else { throw invalid("value", "a string") }
        let path = try optional("path").map { value throws(WebDriverError) in
            guard let path = value.stringValue else { throw invalid("path", "a string") }
            return path
        } ?? "/"
        var domain = host
        if let given = optional("domain") {
            guard let text = given.stringValue else { throw invalid("domain", "a string") }
            let bare = (text.hasPrefix(".") ? String(text.dropFirst()) : text).lowercased()
            let lowerHost = host.lowercased()
            let matches = lowerHost == bare || (!Self.isAddress(lowerHost) && lowerHost.hasSuffix("." + bare))
            guard !bare.isEmpty, matches else {
                throw WebDriverError(.invalidCookieDomain, "the cookie's domain \"\(text)\" does not match the current "
                    + "document's host \(host)")
            }
            // A Domain attribute: sent to subdomains too (an IP address has none).
            domain = Self.isAddress(bare) ? bare : "." + bare
        }
        let secure = try optional("secure").map { value throws(WebDriverError) in
            guard let bool = value.boolValue else { throw invalid("secure", "a boolean") }
            return bool
        } ?? false
        let httpOnly = try optional("httpOnly").map { value throws(WebDriverError) in
            guard let bool = value.boolValue else { throw invalid("httpOnly", "a boolean") }
            return bool
        } ?? false
        let expires = try optional("expiry").map { value throws(WebDriverError) in
            guard let seconds = value.integer(in: 0...9_007_199_254_740_991) else {
                throw invalid("expiry", "an integer of seconds since 1970, 0 or more")
            }
            return Date(timeIntervalSince1970: Double(seconds))
        }
        let sameSite = try optional("sameSite").map { value throws(WebDriverError) in
            guard let policy = value.stringValue.flatMap(SameSite.init(rawValue:)) else {
                throw invalid("sameSite", "\"Lax\", \"Strict\" or \"None\"")
            }
            return policy
        }
        self.init(name: name, value: value, domain: domain, path: path, secure: secure, httpOnly: httpOnly,
                  expires: expires, sameSite: sameSite)
    }

    private static func isAddress(_ host: String) -> Bool {
        host.contains(":") || host.split(separator: ".").allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
    }
}
