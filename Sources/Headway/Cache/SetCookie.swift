import Foundation

// A `Set-Cookie` header a prefetch response carried, held back with its cache entry. Cookies
// of a page the user never saw stay out of the browser's jar; they are committed when the
// entry is served to the page (see `SchemeHandler`).
struct SetCookie: Sendable, Equatable {
    // The URL that sent it (a redirect hop's, or the final one).
    var url: URL
    var value: String

    static func all(in headers: HeaderList, from url: URL) -> [SetCookie] {
        headers.filter { $0.0.lowercased() == "set-cookie" }.map { SetCookie(url: url, value: $0.1) }
    }
}
