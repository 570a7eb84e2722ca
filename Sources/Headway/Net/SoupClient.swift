import CHeadwayShims
import CWebKit
import Foundation

// One libsoup session for everything Headway fetches itself: keep-alive connections, decoded
// bodies, and the in-memory cookie jar of the pages the booster shows. Prefetches read that jar
// but never write to it (see `send(holdingCookies:)`).
@EngineActor
final class SoupClient {
    struct Response {
        var status: Int
        var reason: String
        var headers: HeaderList
        // The body, decoded, as it arrives. Owned by this response.
        var stream: OpaqueGObjectRef
        var finalURL: URL
        // The request headers as they went out, read back from the message after sending:
        // what the caller set plus what libsoup added (Accept-Encoding, User-Agent, Cookie).
        var requestHeaders: HeaderList
        let message: OpaqueGObjectRef

        func header(_ name: String) -> String? { headerValue(headers, name) }

        // Whether cookies or HTTP credentials went out with the request.
        var sentCredentials: Bool {
            headerValue(requestHeaders, "Cookie") != nil || headerValue(requestHeaders, "Authorization") != nil
        }
    }

    let session: UnsafeMutablePointer<SoupSession>
    let cookieJar: UnsafeMutablePointer<SoupCookieJar>
    // Headers libsoup adds to every request the caller did not set itself (lower-cased names),
    // as read back from the last message sent.
    private(set) var sessionHeaders: [String: String] = [:]

    // The headers the browser's pages send that Headway decides (languages, extra headers).
    let browserHeaders: BrowserHeaders
    private let ignoreTLSErrors: Bool
    private let credentials: (user: String, password: String)?

    // A session that is `identity` to servers: its User-Agent and headers, through its proxy,
    // with its TLS and authentication answers.
    init(identity: ClientIdentity, connectionsPerHost: Int) {
        session = hw_soup_session_new(Int32(max(connectionsPerHost * 4, 16)), Int32(connectionsPerHost))
        soup_session_set_user_agent(session, identity.userAgent)
        cookieJar = soup_cookie_jar_new()
        soup_session_add_feature(session, OpaquePointer(cookieJar))
        browserHeaders = identity.headers
        ignoreTLSErrors = identity.ignoresTLSErrors
        credentials = identity.credentials
        if let proxy = identity.proxy {
            let resolver = g_simple_proxy_resolver_new(proxy.absoluteString, nil)
            soup_session_set_proxy_resolver(session, resolver)
            g_object_unref(UnsafeMutableRawPointer(resolver))
        }
    }

    isolated deinit {
        soup_session_abort(session)
        g_object_unref(UnsafeMutableRawPointer(cookieJar))
        g_object_unref(UnsafeMutableRawPointer(session))
    }

    // Sends a request and returns once the headers arrived. Redirects are followed only when
    // `followRedirects` is set; `Response.finalURL` says where it ended. With
    // `holdingCookies`, the request carries the jar's cookies but its `Set-Cookie` headers stay
    // out of the jar: the caller finds them in `Response.headers` (see `commitCookies`).
    func send(method: String, url: URL, headers: HeaderList, body: Data?, followRedirects: Bool = false,
              holdingCookies: Bool = false, cancellable: UnsafeMutablePointer<GCancellable>?) async throws -> Response {
        guard let message = soup_message_new(method, url.absoluteString) else {
            throw HeadwayError(.invalidArgument, "libsoup cannot request \(url.absoluteString)")
        }
        let owner = OpaqueGObjectRef(taking: message)
        if !followRedirects { soup_message_set_flags(message, SOUP_MESSAGE_NO_REDIRECT) }
        let acceptAny: gboolean = ignoreTLSErrors ? 1 : 0
        if let credentials {
            hw_soup_message_answer(message, acceptAny, credentials.user, credentials.password)
        } else {
            hw_soup_message_answer(message, acceptAny, nil, nil)
        }
        let requestHeaders = soup_message_get_request_headers(message)
        for (name, value) in headers { soup_message_headers_replace(requestHeaders, name, value) }
        if holdingCookies {
            soup_message_disable_feature(message, soup_cookie_jar_get_type())
            if let cookie = cookieHeader(for: url) { soup_message_headers_replace(requestHeaders, "Cookie", cookie) }
        }
        if let body, !body.isEmpty {
            let bytes = body.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
            soup_message_set_request_body_from_bytes(
                message,
                soup_message_headers_get_content_type(requestHeaders, nil),
                bytes
            )
            g_bytes_unref(bytes)
        }
        let stream = try await engineAsync(cancellable: cancellable) { cancellable, callback, data in
            soup_session_send_async(session, message, G_PRIORITY_DEFAULT, cancellable, callback, data)
        } finish: { source, result in
            var error: UnsafeMutablePointer<GError>?
            let session = source.map { cast($0, to: SoupSession.self) }
            guard let stream = soup_session_send_finish(session, result, &error) else {
                throw HeadwayError.consuming(error, .loadFailed, "the request failed")
            }
            return EngineObject(OpaqueGObjectRef(taking: OpaquePointer(stream)))
        }
        let list = headerList(soup_message_get_response_headers(message))
        let sent = headerList(soup_message_get_request_headers(message))
        for (name, value) in sent where ["accept-encoding", "user-agent"].contains(name.lowercased())
            && headerValue(headers, name) == nil {
            sessionHeaders[name.lowercased()] = value
        }
        let finalURL = soup_message_get_uri(message).flatMap { g_uri_to_string($0) }.map { text in
            defer { g_free(text) }
            return URL(string: String(cString: text)) ?? url
        } ?? url
        return Response(status: Int(soup_message_get_status(message).rawValue),
                        reason: soup_message_get_reason_phrase(message).map { String(cString: $0) } ?? "",
                        headers: list, stream: stream.object, finalURL: finalURL,
                        requestHeaders: sent, message: owner)
    }

    // Reads a whole body, failing once it passes `limit` bytes.
    func readAll(
        _ stream: OpaqueGObjectRef,
        limit: Int,
        cancellable: UnsafeMutablePointer<GCancellable>?
    ) async throws -> Data {
        var data = Data()
        while true {
            let chunk = try await engineAsync(cancellable: cancellable) { cancellable, callback, data in
                g_input_stream_read_bytes_async(UnsafeMutablePointer(stream.pointer), 65536, G_PRIORITY_DEFAULT,
                                                cancellable, callback, data)
            } finish: { source, result in
                var error: UnsafeMutablePointer<GError>?
                let input = UnsafeMutablePointer<GInputStream>(OpaquePointer(source))
                guard let bytes = g_input_stream_read_bytes_finish(input, result, &error) else {
                    throw HeadwayError.consuming(error, .loadFailed, "reading the body failed")
                }
                defer { g_bytes_unref(bytes) }
                var size: gsize = 0
                let pointer = g_bytes_get_data(bytes, &size)
                return size > 0 && pointer != nil ? Data(bytes: pointer!, count: Int(size)) : Data()
            }
            if chunk.isEmpty { return data }
            data.append(chunk)
            if data.count > limit {
                throw HeadwayError(.loadFailed, "the response is larger than \(limit) bytes")
            }
        }
    }

    // Stores `Set-Cookie` header values as if `url` had just sent them: cookies a prefetch held
    // back, once the page they came with is shown.
    func commitCookies(_ values: [String], from url: URL) {
        guard !values.isEmpty, let uri = g_uri_parse(url.absoluteString, G_URI_FLAGS_NONE, nil) else { return }
        for value in values { soup_cookie_jar_set_cookie(cookieJar, uri, value) }
        g_uri_unref(uri)
    }

    // `document.cookie` for a page at `url`: the jar's cookies it is sent, HttpOnly ones left out.
    func scriptCookies(for url: URL) -> String {
        guard let uri = g_uri_parse(url.absoluteString, G_URI_FLAGS_NONE, nil) else { return "" }
        defer { g_uri_unref(uri) }
        guard let cookies = soup_cookie_jar_get_cookies(cookieJar, uri, 0) else { return "" }
        defer { g_free(cookies) }
        return String(cString: cookies)
    }

    // `document.cookie = line` on a page at `url`: stored as a browser lets a script store it:
    // one line of at most 4 KB, not HttpOnly, not over an HttpOnly cookie of the same name,
    // domain and path, Secure only from https (libsoup checks it against `url`), and within
    // `scriptCookieLimits` (per domain, in all). Returns whether it was stored.
    @discardableResult
    func setScriptCookie(_ line: String, for url: URL) -> Bool {
        guard line.utf8.count <= 4096, !line.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\0" }),
              let host = url.host, !host.isEmpty,
              let uri = g_uri_parse(url.absoluteString, G_URI_FLAGS_NONE, nil) else { return false }
        defer { g_uri_unref(uri) }
        guard let cookie = soup_cookie_parse(line, uri) else { return false }
        let name = String(cString: soup_cookie_get_name(cookie))
        let domain = String(cString: soup_cookie_get_domain(cookie))
        let path = String(cString: soup_cookie_get_path(cookie))
        let stored = allCookies()
        let sameDomain = stored.filter { $0.domain == domain }
        let replaces = sameDomain.contains { $0.name == name && $0.path == path }
        guard soup_cookie_get_http_only(cookie) == 0,
              !sameDomain.contains(where: { $0.name == name && $0.path == path && $0.httpOnly }),
              replaces || (sameDomain.count < Self.scriptCookieLimits.perDomain
                  && stored.count < Self.scriptCookieLimits.total) else {
            soup_cookie_free(cookie)
            return false
        }
        soup_cookie_jar_add_cookie_full(cookieJar, cookie, uri, uri)  // takes the cookie
        return true
    }

    static let scriptCookieLimits = (perDomain: 180, total: 3000)

    // The `Cookie` header the jar has for a request to `url`, if any.
    private func cookieHeader(for url: URL) -> String? {
        guard let uri = g_uri_parse(url.absoluteString, G_URI_FLAGS_NONE, nil) else { return nil }
        defer { g_uri_unref(uri) }
        guard let cookies = soup_cookie_jar_get_cookies(cookieJar, uri, 1) else { return nil }
        defer { g_free(cookies) }
        return String(cString: cookies)
    }

    // The request headers a request with `headers` to `url` would carry once libsoup added its
    // own (lower-cased names): what the cache compares with a stored response's `Vary`.
    func outgoingHeaders(_ headers: HeaderList, to url: URL) -> [String: String] {
        var result = sessionHeaders
        for (name, value) in headers { result[name.lowercased()] = value }
        if let cookie = cookieHeader(for: url) { result["cookie"] = cookie }
        return result
    }

    // Stores `cookie` in the jar, as the configuration gave it.
    func add(_ cookie: Cookie) {
        guard let made = cookie.soupCookie() else { return }
        soup_cookie_jar_add_cookie(cookieJar, made)
    }

    // Forgets every cookie.
    func clearCookies() {
        guard let list = soup_cookie_jar_all_cookies(cookieJar) else { return }
        var node: UnsafeMutablePointer<GSList>? = list
        while let current = node {
            soup_cookie_jar_delete_cookie(cookieJar, OpaquePointer(current.pointee.data))
            node = current.pointee.next
        }
        g_slist_free_full(list) { soup_cookie_free(OpaquePointer($0)) }
    }
}
