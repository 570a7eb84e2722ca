import CWebKit
import Foundation

// Origin rules under the mirror scheme. A page at headway-http://host that asks for
// http://host/x (an absolute URL to its own host, which the web-process extension brings into
// the mirror scheme) is, to WebKit, asking another origin, since the schemes differ; on the
// real web that request is same-origin. So the handler answers for the server:
// - CORS: it allows the page's own mirror origin, and answers the preflight a real browser
//   would never send without passing it on. A server's own CORS answer to another origin's
//   page names that page's real origin; it is given the mirror origin the page really has.
// - Content-Security-Policy: wherever a policy header allows 'self', the page's real origin is
//   allowed too (a policy in a <meta> tag is left as it is).
extension SchemeHandler {
    // The request's `Origin` as WebKit sent it (the page's mirror origin), if any.
    func mirrorOrigin(_ request: UnsafeMutablePointer<WebKitURISchemeRequest>) -> String? {
        guard let headers = webkit_uri_scheme_request_get_http_headers(request),
              let value = soup_message_headers_get_one(headers, "Origin") else { return nil }
        let origin = String(cString: value)
        return origin == "null" ? nil : origin
    }

    // Whether a request from `origin` (mirror form) to `url` (real) is same-origin on the real web.
    static func isSameOriginOnTheRealWeb(_ origin: String, _ url: URL) -> Bool {
        guard let page = URL(string: origin), MirrorScheme.isMirror(page) else { return false }
        return Self.origin(of: MirrorScheme.real(page)) == Self.origin(of: url)
    }

    // `url`'s origin as a page would name it: scheme://host[:port], the port only when it is
    // not the scheme's default.
    static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        let shown = (scheme == "https" && port == 443) || (scheme == "http" && port == 80) ? "" : ":\(port)"
        return "\(scheme)://\(host.contains(":") ? "[\(host)]" : host)\(shown)"
    }

    // Response headers with the CORS answer and the policy the page needs under the mirror scheme.
    func originAdjusted(_ headers: [(String, String)], origin: String?, url: URL) -> [(String, String)] {
        let headers = headers.map { name, value in
            ["content-security-policy", "content-security-policy-report-only"].contains(name.lowercased())
                ? (name, Self.allowingRealOrigin(value, of: url)) : (name, value)
        }
        guard let origin else { return headers }
        if Self.isSameOriginOnTheRealWeb(origin, url) {
            let own: Set<String> = ["access-control-allow-origin", "access-control-allow-credentials"]
            return headers.filter { !own.contains($0.0.lowercased()) }
                + [("Access-Control-Allow-Origin", origin), ("Access-Control-Allow-Credentials", "true")]
        }
        let real = MirrorScheme.real(origin)
        return headers.map { name, value in
            name.lowercased() == "access-control-allow-origin" && value == real ? (name, origin) : (name, value)
        }
    }

    // Answers a CORS preflight for a request that is same-origin on the real web, where no
    // browser would send one. Returns whether it did.
    func answerPreflight(_ request: GObjectRef<WebKitURISchemeRequest>, method: String, url: URL) -> Bool {
        guard method == "OPTIONS", let origin = mirrorOrigin(request.pointer),
              Self.isSameOriginOnTheRealWeb(origin, url),
              let headers = webkit_uri_scheme_request_get_http_headers(request.pointer),
              let asked = soup_message_headers_get_one(headers, "Access-Control-Request-Method")
        else { return false }
        var allowed = [
            ("Access-Control-Allow-Origin", origin), ("Access-Control-Allow-Credentials", "true"),
            ("Access-Control-Allow-Methods", String(cString: asked)), ("Access-Control-Max-Age", "600"),
        ]
        if let names = soup_message_headers_get_one(headers, "Access-Control-Request-Headers") {
            allowed.append(("Access-Control-Allow-Headers", String(cString: names)))
        }
        let stream = g_memory_input_stream_new()!
        finish(request, stream: stream, length: 0, status: 204, reason: "No Content", headers: allowed)
        g_object_unref(UnsafeMutableRawPointer(stream))
        return true
    }

    // `policy` with `url`'s real origin allowed wherever it allows 'self'.
    static func allowingRealOrigin(_ policy: String, of url: URL) -> String {
        guard let origin = origin(of: url) else { return policy }
        // A header may hold several policies, separated by commas.
        return policy.split(separator: ",", omittingEmptySubsequences: false).map { one in
            one.split(separator: ";", omittingEmptySubsequences: false).map { directive in
                let tokens = directive.split(whereSeparator: { $0 == " " || $0 == "\t" })
                guard tokens.contains(where: { $0.lowercased() == "'self'" }), !tokens.contains(where: { $0 == origin })
                else {
                    return String(directive)
                }
                return directive + " " + origin
            }.joined(separator: ";")
        }.joined(separator: ",")
    }
}
