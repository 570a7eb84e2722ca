import Foundation
import Headway

// Get All Cookies, Get Named Cookie, Add Cookie, Delete Cookie, Delete All Cookies
// (https://www.w3.org/TR/webdriver2/#cookies): the cookies of the current document's URL, in the
// session browser's cookie store (`Browser.cookies(for:)`, `addCookie`, `deleteCookie`).
extension Handlers {
    static let cookies: [Command: Handler] = [
        .getAllCookies: { session, _ in
            .array(try await session.documentCookies().map(\.webDriverJSON))
        },
        .getNamedCookie: { session, request in
            let name = request.parameter("name")
            guard let cookie = try await session.documentCookies().first(where: { $0.name == name }) else {
                throw WebDriverError(.noSuchCookie, "the current document has no cookie named \"\(name)\"")
            }
            return cookie.webDriverJSON
        },
        .addCookie: { session, request in
            let fields = try request.object("cookie")
            let url = try await session.documentURL()
            guard let url, let host = url.host, !host.isEmpty,
                  ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
                let shown = url?.absoluteString ?? "about:blank"
                throw WebDriverError(.invalidCookieDomain, "the current document (\(shown)) cannot have cookies: "
                    + "navigate to an http(s) page first")
            }
            let cookie = try Cookie(webDriver: fields, host: host)
            do { try await session.currentBrowser.addCookie(cookie) } catch let error as HeadwayError {
                throw WebDriverError(.unableToSetCookie, error.message)
            }
            return .null
        },
        .deleteCookie: { session, request in
            let name = request.parameter("name")
            for cookie in try await session.documentCookies() where cookie.name == name {
                try await session.currentBrowser.deleteCookie(cookie)
            }
            return .null
        },
        .deleteAllCookies: { session, _ in
            for cookie in try await session.documentCookies() { try await session.currentBrowser.deleteCookie(cookie) }
            return .null
        },
    ]
}

extension Session {
    // The URL of the current browsing context's document (the top-level page's, or a frame's).
    func documentURL() async throws -> URL? {
        if framePath.isEmpty { return try currentPage().url }
        return try await callAtom("function() { return this.document.URL; }").stringValue.flatMap(URL.init(string:))
    }

    // The cookies the current document's URL would be sent; none for a document that cannot
    // have cookies (about:blank, data:, file:).
    func documentCookies() async throws -> [Cookie] {
        guard let url = try await documentURL(), ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
            return []
        }
        return try await currentBrowser.cookies(for: url)
    }

    // The browser of the current window's user context (the session's, but for a window of a
    // user context BiDi made).
    var currentBrowser: Browser {
        let userContext = windows.first { $0.handle == currentHandle }?.userContext ?? "default"
        return (try? browser(ofUserContext: userContext)) ?? browser
    }
}
