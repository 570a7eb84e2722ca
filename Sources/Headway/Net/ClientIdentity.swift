import Foundation

// Who Headway's own HTTP client is to servers: the same User-Agent and request headers as the
// browser's pages, through the same proxy, with the same answers to TLS errors and to a
// request for credentials. All the client needs of a browser's configuration
// (`Booster` makes it from `Browser.Configuration`).
struct ClientIdentity: Sendable {
    var userAgent: String
    // Languages and extra headers, added as WebKit adds them to the pages' requests.
    var headers = BrowserHeaders()
    // Every request goes through this proxy (`http://host:port`, `socks5://…`), or none.
    var proxy: URL?
    // The answer to a server's request for HTTP credentials; nil cancels it.
    var credentials: (user: String, password: String)?
    // Whether certificates that do not verify are accepted.
    var ignoresTLSErrors = false
}
