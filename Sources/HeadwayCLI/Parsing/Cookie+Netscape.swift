import Foundation
import Headway

// `--cookies FILE` of `load`.
extension Cookie {
    // Reads a Netscape `cookies.txt`, as curl (`-b`/`-c`) and wget write and read it: one cookie
    // per line, seven tab-separated fields (domain, include subdomains, path, secure, expiry in
    // Unix seconds or 0 for a session cookie, name, value). Lines starting with `#` are
    // comments, except `#HttpOnly_` before a domain; blank lines are skipped. Throws
    // `.invalidArgument` naming the first line it cannot read.
    static func parseNetscape(_ text: String, source: String = "cookies file") throws -> [Cookie] {
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
            cookies.append(Cookie(name: fields[5], value: fields[6], domain: domain,
                                  path: fields[2].isEmpty ? "/" : fields[2], secure: fields[3].uppercased() == "TRUE",
                                  httpOnly: httpOnly,
                                  expires: expiry == 0 ? nil : Date(timeIntervalSince1970: TimeInterval(expiry))))
        }
        return cookies
    }
}
