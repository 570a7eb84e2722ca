import CWebKit
import Foundation

// The responses interceptors gave held requests, served on the `headway-response` scheme: a
// held request answered this way is sent to `headway-response://TOKEN/PATH`, and this handler
// answers it once from memory. Resource reports turn the URL back into the one the page asked
// for (`real(_:)`). At most `capacity` responses and `byteCapacity` bytes of bodies wait; the
// oldest go first, and one not asked for within twice `Limits.heldRequest` goes too.
@EngineActor
final class ProvidedResponses {
    static let scheme = "headway-response"
    static let capacity = 256
    static let byteCapacity = 256 << 20

    private var waiting: [String: (response: HeldResponse, until: ContinuousClock.Instant)] = [:]
    private var waitingBytes = 0
    // What each token stands for, for the reports; kept a while after the response is served.
    private var originals: [String: URL] = [:]
    private var order: [String] = []

    init(context: UnsafeMutablePointer<WebKitWebContext>) {
        let target = Weak(self)
        // Released by the destroy notify when the context goes away.
        webkit_web_context_register_uri_scheme(context, Self.scheme, providedRequest,
                                               Unmanaged.passRetained(target).toOpaque(), releaseTarget)
        let security = webkit_web_context_get_security_manager(context)
        webkit_security_manager_register_uri_scheme_as_secure(security, Self.scheme)
        webkit_security_manager_register_uri_scheme_as_cors_enabled(security, Self.scheme)
    }

    // Keeps `response` for a request to `url`; returns the URL the request goes to instead.
    func add(_ response: HeldResponse, for url: URL) -> URL {
        let token = UUID().uuidString.lowercased()
        let now = Engine.now()
        for (old, entry) in waiting where entry.until < now { drop(old) }
        while !order.isEmpty, order.count >= Self.capacity || waitingBytes + response.body.count > Self.byteCapacity {
            let oldest = order.removeFirst()
            drop(oldest)
            originals[oldest] = nil
        }
        order.append(token)
        waiting[token] = (response, now + Limits.heldRequest * 2)
        waitingBytes += response.body.count
        originals[token] = url
        var path = url.path.isEmpty ? "/" : url.path
        if let query = url.query { path += "?" + query }
        return URL(string: "\(Self.scheme)://\(token)\(path)") ?? URL(string: "\(Self.scheme)://\(token)/")!
    }

    private func drop(_ token: String) {
        if let entry = waiting.removeValue(forKey: token) { waitingBytes -= entry.response.body.count }
    }

    // The URL a page asked for, for a URL of this scheme; other URLs as they are.
    func real(_ url: URL) -> URL {
        guard url.scheme == Self.scheme, let token = url.host else { return url }
        return originals[token] ?? url
    }

    fileprivate func handle(_ raw: UnsafeMutablePointer<WebKitURISchemeRequest>) {
        let uri = URL(string: String(cString: webkit_uri_scheme_request_get_uri(raw)))
        let method = webkit_uri_scheme_request_get_http_method(raw).map { String(cString: $0) } ?? "GET"
        let requestHeaders = webkit_uri_scheme_request_get_http_headers(raw)
        let origin = requestHeaders.flatMap { soup_message_headers_get_one($0, "Origin") }.map { String(cString: $0) }
        // A page's fetch of another origin is answered for that page alone.
        var cors: [ResourceEntry.Header] = []
        if let origin, origin != "null" {
            cors = [.init(name: "Access-Control-Allow-Origin", value: origin),
                    .init(name: "Access-Control-Allow-Credentials", value: "true")]
        }
        if method == "OPTIONS", let asked = requestHeaders.flatMap({
            soup_message_headers_get_one($0, "Access-Control-Request-Method")
        }) {
            var allowed = cors + [.init(name: "Access-Control-Allow-Methods", value: String(cString: asked))]
            let names = requestHeaders.flatMap { soup_message_headers_get_one($0, "Access-Control-Request-Headers") }
            if let names {
                allowed.append(.init(name: "Access-Control-Allow-Headers", value: String(cString: names)))
            }
            return finish(raw, HeldResponse(status: 204, headers: allowed))
        }
        guard let token = uri?.host, let response = waiting[token]?.response else {
            let error = g_error_new_literal(g_quark_from_string("headway-error-quark"), 1,
                                            "no response is waiting at this URL (each is served once)")
            webkit_uri_scheme_request_finish_error(raw, error)
            g_error_free(error)
            return
        }
        drop(token)
        var answered = response
        let named = Set(response.headers.map { $0.name.lowercased() })
        answered.headers += cors.filter { !named.contains($0.name.lowercased()) }
        finish(raw, answered)
    }

    private func finish(_ raw: UnsafeMutablePointer<WebKitURISchemeRequest>, _ response: HeldResponse) {
        let bytes = response.body.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        let stream = g_memory_input_stream_new_from_bytes(bytes)!
        g_bytes_unref(bytes)
        let answer = webkit_uri_scheme_response_new(stream, gint64(response.body.count))!
        g_object_unref(UnsafeMutableRawPointer(stream))
        webkit_uri_scheme_response_set_status(answer, guint(clamping: response.status), response.reason)
        let headers = soup_message_headers_new(SOUP_MESSAGE_HEADERS_RESPONSE)!
        for header in response.headers {
            switch header.name.lowercased() {
            case "content-length", "content-encoding", "transfer-encoding", "connection": continue
            case "content-type": webkit_uri_scheme_response_set_content_type(answer, header.value)
            default: break
            }
            soup_message_headers_append(headers, header.name, header.value)
        }
        webkit_uri_scheme_response_set_http_headers(answer, headers)  // takes ownership
        webkit_uri_scheme_request_finish_with_response(raw, answer)
        g_object_unref(UnsafeMutableRawPointer(answer))
    }
}

private func providedRequest(_ request: UnsafeMutablePointer<WebKitURISchemeRequest>?, _ data: gpointer?) {
    guard let request, let data else { return }
    nonisolated(unsafe) let raw = request
    let target = Unmanaged<Weak<ProvidedResponses>>.fromOpaque(data).takeUnretainedValue()
    EngineActor.assumeIsolated {
        guard let provided = target.object else {
            let error = g_error_new_literal(g_quark_from_string("headway-error-quark"), 1, "the browser is closed")
            webkit_uri_scheme_request_finish_error(raw, error)
            g_error_free(error)
            return
        }
        provided.handle(raw)
    }
}

private func releaseTarget(_ data: gpointer?) {
    Unmanaged<Weak<ProvidedResponses>>.fromOpaque(data!).release()
}
