import Foundation

// The RFC 9111 rules the prefetch cache follows, as a private cache with a short lifetime cap.
enum CachePolicy {
    // Prefetched entries live at most this long, whatever the server says.
    static let lifetimeCap: Duration = .seconds(300)

    // Headers that never go into the cache (no `Set-Cookie` replay) or that describe the
    // connection or an encoding already undone by libsoup.
    static let unstoredHeaders: Set<String> = [
        "set-cookie", "set-cookie2", "connection", "keep-alive", "transfer-encoding", "content-encoding",
        "content-length", "proxy-authenticate", "upgrade", "age",
    ]

    struct Directives {
        var noStore = false
        var noCache = false
        var maxAge: Double?

        init(_ value: String?) {
            for part in (value ?? "").split(separator: ",") {
                let pair = part.split(separator: "=", maxSplits: 1).map {
                    $0.trimmingCharacters(in: .whitespaces).lowercased()
                }
                switch pair.first {
                case "no-store": noStore = true
                case "no-cache": noCache = true
                case "max-age":
                    maxAge =
                        pair.count == 2 ? Double(pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))) : nil
                default: break
                }
            }
        }
    }

    // How long a response may be served from the cache, or nil if it must not be stored. A
    // response that must be revalidated before each use (`no-cache`, `max-age=0`, `Age` past
    // `max-age`) is kept with lifetime 0 when it has a validator, so a 304 can answer for it.
    static func lifetime(method: String, status: Int, headers: HeaderList) -> Duration? {
        guard method == "GET", (200...299).contains(status), status != 206 else { return nil }
        func header(_ name: String) -> String? { headerValue(headers, name) }
        let directives = Directives(header("Cache-Control"))
        if directives.noStore { return nil }
        if varyNames(headers).contains("*") { return nil }
        let hasValidator = header("ETag") != nil || header("Last-Modified") != nil
        let mustRevalidate = directives.noCache || header("Pragma")?.lowercased().contains("no-cache") == true
        let age = header("Age").flatMap { Double($0.trimmingCharacters(in: .whitespaces)) } ?? 0
        // Seconds from the server: NaN, infinite and negative ones must not trap.
        let remaining = directives.maxAge.map { ($0 - age) * 1000 }
            .map { $0 > 0 ? Duration(clampedMilliseconds: $0) : .zero }
        if mustRevalidate || remaining == .zero { return hasValidator ? .zero : nil }
        return min(remaining ?? lifetimeCap, lifetimeCap)
    }

    // The request-header names a response varies on (lower-cased).
    static func varyNames(_ headers: HeaderList) -> [String] {
        headerValues(headers, "Vary")
            .flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty }
    }

    // The names whose request values tell a response's variants apart: `varyNames` without
    // `Accept-Encoding`, since bodies are stored as libsoup decoded them (one variant suits
    // every encoding; libsoup also adds that header itself, so a run's first request has none).
    static func variantNames(_ headers: HeaderList) -> [String] {
        varyNames(headers).filter { $0 != "accept-encoding" }
    }

    static func storedHeaders(_ headers: HeaderList) -> HeaderList {
        headers.filter { !unstoredHeaders.contains($0.0.lowercased()) }
    }
}
