import CHeadwayShims
import CWebKit
import Foundation

// Writing to WebKit: the request headers passed on, and the response (or error) a request is
// finished with. A request whose page is gone is never written to.
extension SchemeHandler {
    // WebKit's request headers that the server should see, with mirror URLs made real again.
    func forwardedHeaders(_ request: UnsafeMutablePointer<WebKitURISchemeRequest>) -> HeaderList {
        guard let headers = webkit_uri_scheme_request_get_http_headers(request) else { return [] }
        let dropped: Set<String> = ["host", "connection", "content-length", "cookie", "accept-encoding"]
        return headerList(headers).compactMap { name, value in
            let key = name.lowercased()
            guard !dropped.contains(key) else { return nil }
            return (name, key == "referer" || key == "origin" ? MirrorScheme.real(value) : value)
        }
    }

    // A request whose web view is gone was stopped by WebKit: it must never be written to.
    func isStopped(_ request: GObjectRef<WebKitURISchemeRequest>) -> Bool {
        webkit_uri_scheme_request_get_web_view(request.pointer) == nil
    }

    func respond(_ request: GObjectRef<WebKitURISchemeRequest>, with cached: CachedResponse) {
        guard !isStopped(request) else { return }
        let bytes = cached.body.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        let stream = g_memory_input_stream_new_from_bytes(bytes)
        g_bytes_unref(bytes)
        finish(request, stream: stream!, length: Int64(cached.body.count), status: cached.status, reason: nil,
               headers: cached.headers, finalURL: cached.url)
        g_object_unref(UnsafeMutableRawPointer(stream))
    }

    func respond(_ request: GObjectRef<WebKitURISchemeRequest>, streaming response: SoupClient.Response) {
        guard !isStopped(request) else { return }
        let decoded = response.header("Content-Encoding") != nil
        let length = decoded ? -1 : Int64(response.header("Content-Length") ?? "") ?? -1
        let headers = response.headers.filter { !["set-cookie", "set-cookie2"].contains($0.0.lowercased()) }
        guard let rate = conditions?.bytesPerSecond else {
            finish(
                request,
                stream: UnsafeMutablePointer(response.stream.pointer),
                length: length,
                status: response.status,
                reason: response.reason,
                headers: headers,
                finalURL: response.finalURL
            )
            return
        }
        // The emulated bandwidth paces the body as decoded, as it reaches WebKit.
        let paced = hw_paced_input_stream_new(UnsafeMutablePointer(response.stream.pointer), rate)
        finish(
            request,
            stream: paced,
            length: length,
            status: response.status,
            reason: response.reason,
            headers: headers,
            finalURL: response.finalURL
        )
        g_object_unref(UnsafeMutableRawPointer(paced))
    }

    func finish(
        _ request: GObjectRef<WebKitURISchemeRequest>,
        stream: UnsafeMutablePointer<GInputStream>,
        length: Int64,
        status: Int,
        reason: String?,
        headers: [(String, String)],
        finalURL: URL? = nil
    ) {
        let response = webkit_uri_scheme_response_new(stream, gint64(length))!
        webkit_uri_scheme_response_set_status(response, guint(clamping: status), reason)
        let soupHeaders = soup_message_headers_new(SOUP_MESSAGE_HEADERS_RESPONSE)!
        let real = MirrorScheme.real(URL(string: String(cString: webkit_uri_scheme_request_get_uri(request.pointer)))!)
        // CORS is answered for where a redirect followed here led.
        for (name, value) in originAdjusted(headers, origin: mirrorOrigin(request.pointer), url: finalURL ?? real) {
            switch name.lowercased() {
            case "content-encoding", "content-length", "transfer-encoding", "connection", "keep-alive":
                continue
            case "location":
                let target = URL(string: value, relativeTo: real)
                soup_message_headers_append(
                    soupHeaders,
                    name,
                    target.map { MirrorScheme.mirror($0.absoluteURL).absoluteString } ?? value
                )
            case "content-type":
                webkit_uri_scheme_response_set_content_type(response, value)
                soup_message_headers_append(soupHeaders, name, value)
            default:
                soup_message_headers_append(soupHeaders, name, value)
            }
        }
        webkit_uri_scheme_response_set_http_headers(response, soupHeaders)  // takes ownership
        webkit_uri_scheme_request_finish_with_response(request.pointer, response)
        g_object_unref(UnsafeMutableRawPointer(response))
    }

    func fail(_ request: GObjectRef<WebKitURISchemeRequest>, _ error: HeadwayError) {
        guard !isStopped(request) else { return }
        let gerror = g_error_new_literal(g_quark_from_string(error.gerror?.domain ?? "headway-error-quark"),
                                         Int32(error.gerror?.code ?? 1), error.gerror?.message ?? error.message)
        webkit_uri_scheme_request_finish_error(request.pointer, gerror)
        g_error_free(gerror)
    }
}
