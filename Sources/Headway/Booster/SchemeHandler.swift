import CWebKit
import Foundation

/// Answers WebKit's requests on the mirror schemes: from the prefetch cache when it can, by
/// joining a prefetch still in flight, or by fetching with libsoup and streaming the body to
/// WebKit as it arrives. Methods other than GET go straight through and are never cached.
@EngineActor
final class SchemeHandler {
    private let client: SoupClient
    private let cache: PrefetchCache
    private var stats: [UInt: PrefetchLoadStats] = [:]
    /// Called when a main-frame document answers with a redirect: WebKitGTK's scheme handlers
    /// cannot redirect, so the page navigates to the target itself (view, real target URL).
    var onMainFrameRedirect: ((UnsafeMutablePointer<WebKitWebView>, URL) -> Void)?

    init(client: SoupClient, cache: PrefetchCache) {
        self.client = client
        self.cache = cache
    }

    func stats(forView view: UnsafeMutableRawPointer) -> PrefetchLoadStats {
        stats[UInt(bitPattern: view)] ?? PrefetchLoadStats()
    }

    func resetStats(forView view: UnsafeMutableRawPointer) {
        stats[UInt(bitPattern: view)] = nil
    }

    func handle(_ raw: UnsafeMutablePointer<WebKitURISchemeRequest>) {
        let received = Engine.now()
        let request = GObjectRef(retaining: raw)
        guard let mirror = URL(string: String(cString: webkit_uri_scheme_request_get_uri(raw))) else {
            fail(request, HeadwayError(.invalidArgument, "the mirror scheme got an invalid URL"))
            return
        }
        let url = MirrorScheme.real(mirror)
        let method = webkit_uri_scheme_request_get_http_method(raw).map { String(cString: $0) } ?? "GET"
        let view = webkit_uri_scheme_request_get_web_view(raw)
        let viewKey = view.map { UInt(bitPattern: UnsafeMutableRawPointer($0)) } ?? 0
        // The view's URI is the request's while its main document loads; subresources and
        // frames follow redirects inside the handler instead.
        let isMainFrame = view.flatMap { webkit_web_view_get_uri($0) }.map { String(cString: $0) } == mirror.absoluteString
        let headers = forwardedHeaders(raw)
        let lowered = Dictionary(headers.map { ($0.0.lowercased(), $0.1) }, uniquingKeysWith: { a, _ in a })
        let body = method == "GET" || method == "HEAD" ? nil : webkit_uri_scheme_request_get_http_body(raw).map { OpaqueGObjectRef(taking: OpaquePointer($0)) }
        if method == "GET", let hit = cache.lookup(url, requestHeaders: lowered) {
            // A hit is answered at once, inside WebKit's callback.
            respond(request, with: hit)
            stats[viewKey, default: PrefetchLoadStats()].fromCache += 1
            stats[viewKey]!.slowestCacheAnswerMs = max(stats[viewKey]!.slowestCacheAnswerMs, Engine.now() - received)
            return
        }
        Task { @EngineActor in
            if method == "GET" {
                if let flight = self.cache.fetchInFlight(url), await flight.value != nil,
                   let joined = self.cache.lookup(url, requestHeaders: lowered) {
                    self.stats[viewKey, default: PrefetchLoadStats()].joined += 1
                    self.respond(request, with: joined)
                    return
                }
            }
            self.stats[viewKey, default: PrefetchLoadStats()].fetched += 1
            do {
                var data: Data?
                if let body { data = try await self.client.readAll(body, limit: 64 << 20, cancellable: nil) }
                let response = try await self.client.send(method: method, url: url, headers: headers, body: data,
                                                          followRedirects: !isMainFrame, cancellable: nil)
                if isMainFrame, (300...399).contains(response.status), let location = response.header("Location"),
                   let target = URL(string: location, relativeTo: url)?.absoluteURL, let view, !self.isStopped(request) {
                    // Not finished: the new navigation stops this request, which is never written to.
                    self.onMainFrameRedirect?(view, target)
                    return
                }
                self.respond(request, streaming: response)
            } catch {
                self.fail(request, error as? HeadwayError ?? HeadwayError(.loadFailed, "\(error)"))
            }
        }
    }

    /// WebKit's request headers that the server should see, with mirror URLs made real again.
    private func forwardedHeaders(_ request: UnsafeMutablePointer<WebKitURISchemeRequest>) -> HeaderList {
        guard let headers = webkit_uri_scheme_request_get_http_headers(request) else { return [] }
        let dropped: Set<String> = ["host", "connection", "content-length", "cookie", "accept-encoding"]
        return headerList(headers).compactMap { name, value in
            let key = name.lowercased()
            guard !dropped.contains(key) else { return nil }
            return (name, key == "referer" || key == "origin" ? MirrorScheme.real(value) : value)
        }
    }

    /// A request whose web view is gone was stopped by WebKit: it must never be written to.
    private func isStopped(_ request: GObjectRef<WebKitURISchemeRequest>) -> Bool {
        webkit_uri_scheme_request_get_web_view(request.pointer) == nil
    }

    private func respond(_ request: GObjectRef<WebKitURISchemeRequest>, with cached: CachedResponse) {
        guard !isStopped(request) else { return }
        let bytes = cached.body.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        let stream = g_memory_input_stream_new_from_bytes(bytes)
        g_bytes_unref(bytes)
        finish(request, stream: stream!, length: Int64(cached.body.count), status: cached.status, reason: nil,
               headers: cached.headers)
        g_object_unref(UnsafeMutableRawPointer(stream))
    }

    private func respond(_ request: GObjectRef<WebKitURISchemeRequest>, streaming response: SoupClient.Response) {
        guard !isStopped(request) else { return }
        let decoded = response.header("Content-Encoding") != nil
        let length = decoded ? -1 : Int64(response.header("Content-Length") ?? "") ?? -1
        let headers = response.headers.filter { !["set-cookie", "set-cookie2"].contains($0.0.lowercased()) }
        finish(request, stream: UnsafeMutablePointer(response.stream.pointer), length: length, status: response.status,
               reason: response.reason, headers: headers)
    }

    private func finish(_ request: GObjectRef<WebKitURISchemeRequest>, stream: UnsafeMutablePointer<GInputStream>,
                        length: Int64, status: Int, reason: String?, headers: [(String, String)]) {
        let response = webkit_uri_scheme_response_new(stream, gint64(length))!
        webkit_uri_scheme_response_set_status(response, guint(status), reason)
        let soupHeaders = soup_message_headers_new(SOUP_MESSAGE_HEADERS_RESPONSE)!
        for (name, value) in headers {
            switch name.lowercased() {
            case "content-encoding", "content-length", "transfer-encoding", "connection", "keep-alive":
                continue
            case "location":
                let target = URL(string: value, relativeTo: MirrorScheme.real(URL(string: String(cString: webkit_uri_scheme_request_get_uri(request.pointer)))!))
                soup_message_headers_append(soupHeaders, name, target.map { MirrorScheme.mirror($0.absoluteURL).absoluteString } ?? value)
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

    private func fail(_ request: GObjectRef<WebKitURISchemeRequest>, _ error: HeadwayError) {
        guard !isStopped(request) else { return }
        let gerror = g_error_new_literal(g_quark_from_string(error.gerror?.domain ?? "headway-error-quark"),
                                         Int32(error.gerror?.code ?? 1), error.gerror?.message ?? error.message)
        webkit_uri_scheme_request_finish_error(request.pointer, gerror)
        g_error_free(gerror)
    }
}
