import CWebKit
import Foundation

extension Browser {
    // Applies the configuration's network settings to the web context: languages, TLS policy
    // and proxy. Cookies follow in `setCookies()`, which is asynchronous.
    func applyNetworkSettings() {
        BrowserHeaders(locale: configuration.locale, extra: configuration.extraHeaders).apply(to: context.pointer)
        let manager = webkit_web_context_get_website_data_manager(context.pointer)
        if configuration.ignoreTLSErrors {
            webkit_website_data_manager_set_tls_errors_policy(manager, WEBKIT_TLS_ERRORS_POLICY_IGNORE)
        }
        if let proxy = configuration.proxy {
            let settings = webkit_network_proxy_settings_new(proxy.absoluteString, nil)
            webkit_website_data_manager_set_network_proxy_settings(manager, WEBKIT_NETWORK_PROXY_MODE_CUSTOM, settings)
            webkit_network_proxy_settings_free(settings)
        }
    }

    // Adds the configuration's cookies to WebKit's cookie store (and, `inBooster`, the booster's
    // jar): all asked for at once, then one wait for every answer, bounded by `timeout` plus a
    // second per 5,000 cookies. A cookie WebKit refuses is skipped.
    func setCookies(inBooster: Bool = true, timeout: Duration = .seconds(10)) async {
        if inBooster, let booster { for cookie in configuration.cookies { booster.add(cookie) } }
        let made = configuration.cookies.compactMap { $0.soupCookie() }
        guard !made.isEmpty else { return }
        defer { made.forEach { soup_cookie_free($0) } }
        let manager = webkit_website_data_manager_get_cookie_manager(
            webkit_web_context_get_website_data_manager(context.pointer))
        _ = try? await engineAsync(calls: made.count, timeout: timeout + .seconds(Double(made.count) / 5_000)) {
            cancellable, callback, data in
            for cookie in made { webkit_cookie_manager_add_cookie(manager, cookie, cancellable, callback, data) }
        } finish: { source, result in
            var error: UnsafeMutablePointer<GError>?
            let manager = source.map { cast($0, to: WebKitCookieManager.self) }
            _ = webkit_cookie_manager_add_cookie_finish(manager, result, &error)
            if let error { g_error_free(error) }
        }
    }
}

extension Cookie {
    // 9999-12-31T23:59:59Z, the last second GLib's GDateTime holds.
    static let latestExpiry: Double = 253_402_300_799

    // A new SoupCookie (owned by the caller) with this cookie's fields, or nil when libsoup
    // refuses them.
    func soupCookie() -> OpaquePointer? {
        guard let cookie = soup_cookie_new(name, value, domain, path, -1) else { return nil }
        if let expires {
            // GLib holds years 1 to 9999: a later (or non-finite) expiry is the end of 9999, an
            // earlier one 1970 (expired).
            let seconds = expires.timeIntervalSince1970
            let clamped = seconds.isNaN ? 0 : min(max(seconds, 0), Self.latestExpiry)
            if let date = g_date_time_new_from_unix_utc(gint64(clamped)) {
                soup_cookie_set_expires(cookie, date)
                g_date_time_unref(date)
            }
        }
        soup_cookie_set_secure(cookie, secure ? 1 : 0)
        soup_cookie_set_http_only(cookie, httpOnly ? 1 : 0)
        switch sameSite {
        case .none?: soup_cookie_set_same_site_policy(cookie, SOUP_SAME_SITE_POLICY_NONE)
        case .lax?: soup_cookie_set_same_site_policy(cookie, SOUP_SAME_SITE_POLICY_LAX)
        case .strict?: soup_cookie_set_same_site_policy(cookie, SOUP_SAME_SITE_POLICY_STRICT)
        case nil: break
        }
        return cookie
    }
}
