import Foundation

// Headway's own URL schemes that mirror http and https one to one, because WebKitGTK will not
// let a handler take over http(s). `http://h:p/x` is browsed as `headway-http://h:p/x`.
enum MirrorScheme {
    static let http = "headway-http"
    static let https = "headway-https"
    static let all = [http, https]

    // The mirror URL for an http(s) URL; other URLs are returned unchanged.
    static func mirror(_ url: URL) -> URL {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return url }
        return replacingScheme(of: url, with: scheme == "http" ? http : https)
    }

    // The real http(s) URL for a mirror URL; other URLs are returned unchanged.
    static func real(_ url: URL) -> URL {
        switch url.scheme?.lowercased() {
        case http: replacingScheme(of: url, with: "http")
        case https: replacingScheme(of: url, with: "https")
        default: url
        }
    }

    static func real(_ text: String) -> String {
        guard let url = URL(string: text) else { return text }
        return real(url).absoluteString
    }

    static func isMirror(_ url: URL) -> Bool { all.contains(url.scheme?.lowercased() ?? "") }

    private static func replacingScheme(of url: URL, with scheme: String) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        components.scheme = scheme
        return components.url ?? url
    }
}
