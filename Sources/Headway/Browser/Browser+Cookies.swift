import CWebKit
public import Foundation

extension Browser {
    /// The cookies a request to `url` would carry (secure ones only for https; http-only ones
    /// too): from WebKit's cookie store, or with the booster (`Configuration.booster`) from its
    /// jar, which holds the cookies its pages' responses set.
    ///
    /// Throws `.invalidArgument` for a URL that is not http(s), `.closed` once the browser is
    /// closed, `.timeout` when WebKit has not answered within `timeout`.
    public func cookies(for url: URL, timeout: Duration = .seconds(10)) async throws -> [Cookie] {
        let manager = try cookieManager(for: url)
        if let booster { return booster.cookies(for: url) }
        return try await engineAsync(timeout: timeout) { cancellable, callback, data in
            webkit_cookie_manager_get_cookies(manager, url.absoluteString, cancellable, callback, data)
        } finish: { source, result in
            var error: UnsafeMutablePointer<GError>?
            let manager = source.map { cast($0, to: WebKitCookieManager.self) }
            let list = webkit_cookie_manager_get_cookies_finish(manager, result, &error)
            if let error {
                throw HeadwayError.consuming(error, .engine, "WebKit could not read the cookies for \(url)")
            }
            return Self.cookies(consuming: list)
        }
    }

    /// Every cookie the browser holds, whatever its site: WebKit's cookie store, or with the
    /// booster its jar. Throws `.closed` once the browser is closed, `.timeout` when WebKit has
    /// not answered within `timeout`.
    public func allCookies(timeout: Duration = .seconds(10)) async throws -> [Cookie] {
        let manager = try cookieManager(for: nil)
        if let booster { return booster.allCookies() }
        return try await engineAsync(timeout: timeout) { cancellable, callback, data in
            webkit_cookie_manager_get_all_cookies(manager, cancellable, callback, data)
        } finish: { source, result in
            var error: UnsafeMutablePointer<GError>?
            let manager = source.map { cast($0, to: WebKitCookieManager.self) }
            let list = webkit_cookie_manager_get_all_cookies_finish(manager, result, &error)
            if let error { throw HeadwayError.consuming(error, .engine, "WebKit could not read its cookies") }
            return Self.cookies(consuming: list)
        }
    }

    // The cookies of a list of SoupCookies, which it frees.
    private static func cookies(consuming list: UnsafeMutablePointer<GList>?) -> [Cookie] {
        defer { g_list_free_full(list) { soup_cookie_free(OpaquePointer($0)) } }
        var cookies: [Cookie] = []
        var node = list
        while let current = node {
            if let pointer = current.pointee.data { cookies.append(Cookie(soup: OpaquePointer(pointer))) }
            node = current.pointee.next
        }
        return cookies
    }

    /// Adds `cookie` to WebKit's cookie store (and the booster's jar), replacing one of the same
    /// name, domain and path. Throws `.invalidArgument` when libsoup refuses its fields, `.closed`
    /// once the browser is closed, `.timeout` when WebKit has not answered within `timeout`.
    public func addCookie(_ cookie: Cookie, timeout: Duration = .seconds(10)) async throws {
        try await change(cookie, delete: false, timeout: timeout)
    }

    /// Deletes the cookie with `cookie`'s name, domain and path from WebKit's cookie store (and
    /// the booster's jar); nothing happens when there is none. Throws as `addCookie` does.
    public func deleteCookie(_ cookie: Cookie, timeout: Duration = .seconds(10)) async throws {
        try await change(cookie, delete: true, timeout: timeout)
    }

    private func change(_ cookie: Cookie, delete: Bool, timeout: Duration) async throws {
        let manager = try cookieManager(for: nil)
        guard let made = cookie.soupCookie() else {
            throw HeadwayError(.invalidArgument, "libsoup refused the cookie \(cookie.name) for \(cookie.domain)")
        }
        defer { soup_cookie_free(made) }
        if let booster {
            if delete { booster.delete(cookie) } else { booster.add(cookie) }
        }
        try await engineAsync(timeout: timeout) { cancellable, callback, data in
            if delete {
                webkit_cookie_manager_delete_cookie(manager, made, cancellable, callback, data)
            } else {
                webkit_cookie_manager_add_cookie(manager, made, cancellable, callback, data)
            }
        } finish: { source, result in
            var error: UnsafeMutablePointer<GError>?
            let manager = source.map { cast($0, to: WebKitCookieManager.self) }
            if delete {
                _ = webkit_cookie_manager_delete_cookie_finish(manager, result, &error)
            } else {
                _ = webkit_cookie_manager_add_cookie_finish(manager, result, &error)
            }
            if let error {
                throw HeadwayError.consuming(error, .engine, "WebKit could not \(delete ? "delete" : "add") the cookie "
                                             + "\(cookie.name) for \(cookie.domain)")
            }
        }
    }

    private func cookieManager(for url: URL?) throws -> UnsafeMutablePointer<WebKitCookieManager> {
        guard !isClosed else { throw HeadwayError(.closed, "the browser is closed") }
        if let url, !["http", "https"].contains(url.scheme?.lowercased() ?? "") {
            throw HeadwayError(.invalidArgument, "cookies are kept for http and https URLs, not \(url.absoluteString)")
        }
        return webkit_website_data_manager_get_cookie_manager(
            webkit_web_context_get_website_data_manager(context.pointer))
    }
}

extension Cookie {
    // The fields of a SoupCookie (borrowed).
    init(soup cookie: OpaquePointer) {
        func text(_ pointer: UnsafePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }
        let expires = soup_cookie_get_expires(cookie).map {
            Date(timeIntervalSince1970: Double(g_date_time_to_unix($0)))
        }
        let sameSite: SameSite? =
            switch soup_cookie_get_same_site_policy(cookie) {
            case SOUP_SAME_SITE_POLICY_NONE: SameSite.none
            case SOUP_SAME_SITE_POLICY_LAX: .lax
            case SOUP_SAME_SITE_POLICY_STRICT: .strict
            default: nil
            }
        self.init(name: text(soup_cookie_get_name(cookie)), value: text(soup_cookie_get_value(cookie)),
                  domain: text(soup_cookie_get_domain(cookie)), path: text(soup_cookie_get_path(cookie)),
                  secure: soup_cookie_get_secure(cookie) != 0, httpOnly: soup_cookie_get_http_only(cookie) != 0,
                  expires: expires, sameSite: sameSite)
    }
}

extension SoupClient {
    // The jar's cookies for a request to `url`.
    func cookies(for url: URL) -> [Cookie] {
        guard let uri = g_uri_parse(url.absoluteString, G_URI_FLAGS_NONE, nil) else { return [] }
        defer { g_uri_unref(uri) }
        guard let list = soup_cookie_jar_get_cookie_list(cookieJar, uri, 1) else { return [] }
        defer { g_slist_free_full(list) { soup_cookie_free(OpaquePointer($0)) } }
        var cookies: [Cookie] = []
        var node: UnsafeMutablePointer<GSList>? = list
        while let current = node {
            if let pointer = current.pointee.data { cookies.append(Cookie(soup: OpaquePointer(pointer))) }
            node = current.pointee.next
        }
        return cookies
    }

    // Every cookie of the jar.
    func allCookies() -> [Cookie] {
        guard let list = soup_cookie_jar_all_cookies(cookieJar) else { return [] }
        defer { g_slist_free_full(list) { soup_cookie_free(OpaquePointer($0)) } }
        var cookies: [Cookie] = []
        var node: UnsafeMutablePointer<GSList>? = list
        while let current = node {
            if let pointer = current.pointee.data { cookies.append(Cookie(soup: OpaquePointer(pointer))) }
            node = current.pointee.next
        }
        return cookies
    }

    // Deletes the jar's cookies with `cookie`'s name, domain and path (libsoup's own match
    // compares values too).
    func delete(_ cookie: Cookie) {
        guard let list = soup_cookie_jar_all_cookies(cookieJar) else { return }
        defer { g_slist_free_full(list) { soup_cookie_free(OpaquePointer($0)) } }
        var node: UnsafeMutablePointer<GSList>? = list
        while let current = node {
            if let pointer = current.pointee.data {
                let stored = Cookie(soup: OpaquePointer(pointer))
                if stored.name == cookie.name, stored.domain == cookie.domain, stored.path == cookie.path {
                    soup_cookie_jar_delete_cookie(cookieJar, OpaquePointer(pointer))
                }
            }
            node = current.pointee.next
        }
    }
}
