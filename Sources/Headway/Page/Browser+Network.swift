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

    // Adds the configuration's cookies to WebKit's cookie store (and the booster's jar), one at
    // a time; each is bounded by `timeout`. A cookie WebKit refuses is skipped.
    func setCookies(timeout: Duration = .seconds(10)) async {
        for cookie in configuration.cookies {
            booster?.client.add(cookie)
            guard let made = cookie.soupCookie() else { continue }
            let manager = webkit_website_data_manager_get_cookie_manager(webkit_web_context_get_website_data_manager(context.pointer))
            _ = try? await engineAsync(timeout: timeout) { cancellable, callback, data in
                webkit_cookie_manager_add_cookie(manager, made, cancellable, callback, data)
            } finish: { source, result in
                var error: UnsafeMutablePointer<GError>?
                let manager = source.map { cast($0, to: WebKitCookieManager.self) }
                _ = webkit_cookie_manager_add_cookie_finish(manager, result, &error)
                if let error { g_error_free(error) }
            }
            soup_cookie_free(made)
        }
    }
}

extension Cookie {
    // A new SoupCookie (owned by the caller) with this cookie's fields, or nil when libsoup
    // refuses them.
    func soupCookie() -> OpaquePointer? {
        guard let cookie = soup_cookie_new(name, value, domain, path, -1) else { return nil }
        if let expires {
            let date = g_date_time_new_from_unix_utc(gint64(expires.timeIntervalSince1970))
            soup_cookie_set_expires(cookie, date)
            g_date_time_unref(date)
        }
        soup_cookie_set_secure(cookie, secure ? 1 : 0)
        soup_cookie_set_http_only(cookie, httpOnly ? 1 : 0)
        return cookie
    }
}
