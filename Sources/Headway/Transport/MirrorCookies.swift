import CWebKit
import Foundation

// `document.cookie` on a page browsed through the mirror schemes. WebKit keeps cookies only for
// http(s), so on a mirror page `document.cookie` would read nothing and store nothing, and the
// cookies its responses set (which the booster's jar took) would never show. A script at
// document start (`script`, all frames, mirror pages only) makes `document.cookie` ask the
// scheme handler synchronously, at `path` on the page's own mirror origin: a GET reads the
// booster's jar for the page's real URL (HttpOnly cookies left out, as a page sees them), a POST
// stores one cookie line there, as a browser lets a script (`SoupClient.setScriptCookie`). The
// jar is the one the booster's requests send, so the server sees what the page set.
// Only the shim may ask: it sends `header`, which no other origin can send without a preflight,
// and a preflight is refused; an `Origin` must be the page's own. A hidden prerendered page may
// read but not write (writing acts: it ends the prerender, as any request that acts does). The
// extension leaves these requests out of the page's filters and resource records.
enum MirrorCookies {
    static let path = "/.well-known/headway-cookie"
    static let header = "X-Headway-Cookie"

    // Whether `url` (real or mirror) is the cookie path: not a request of the page's own.
    static func isBridge(_ url: URL) -> Bool { url.path == path }

    static let script = #"""
        (() => {
          if (!/^headway-https?:$/.test(location.protocol)) return;
          const XHR = XMLHttpRequest, open = XHR.prototype.open, send = XHR.prototype.send;
          const setHeader = XHR.prototype.setRequestHeader;
          const endpoint = new URL('/.well-known/headway-cookie', location.href).href + '?u=';
          const encode = encodeURIComponent;
          const responseText = Object.getOwnPropertyDescriptor(XHR.prototype, 'responseText').get;
          const status = Object.getOwnPropertyDescriptor(XHR.prototype, 'status').get;
          const call = (method, body) => {
            try {
              const request = new XHR();
              open.call(request, method, endpoint + encode(location.href), false);
              setHeader.call(request, 'X-Headway-Cookie', '1');
              send.call(request, body);
              return status.call(request) === 200 ? responseText.call(request) : '';
            } catch (_) { return ''; }
          };
          Object.defineProperty(Document.prototype, 'cookie', {
            configurable: true, enumerable: true,
            get() { return call('GET', null); },
            set(value) { call('POST', String(value)); },
          });
        })();
        """#
}

extension SchemeHandler {
    // Answers a mirror page's `document.cookie` (see `MirrorCookies`). Returns whether `url` was
    // the cookie path.
    func answerCookies(_ request: GObjectRef<WebKitURISchemeRequest>, method: String, url: URL) -> Bool {
        guard MirrorCookies.isBridge(url) else { return false }
        let headers = webkit_uri_scheme_request_get_http_headers(request.pointer)
        let page = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
            .first { $0.name == "u" }?.value.flatMap(URL.init(string:)).map(MirrorScheme.real)
        let origin = mirrorOrigin(request.pointer).map(MirrorScheme.real)
        // Only the page's own shim, for its own origin.
        guard ["GET", "POST"].contains(method), let page, let own = Self.origin(of: page),
              own == Self.origin(of: url),
              headers.flatMap({ soup_message_headers_get_one($0, MirrorCookies.header) }) != nil,
              origin == nil || origin == own else {
            finishCookies(request, status: 403, text: "")
            return true
        }
        guard method == "POST" else {
            finishCookies(request, status: 200, text: client.scriptCookies(for: page))
            return true
        }
        let view = webkit_uri_scheme_request_get_web_view(request.pointer)
        if view.flatMap(PageBooster.of)?.owner?.refusesAction() == true {
            finishCookies(request, status: 403, text: "")
            return true
        }
        let body = webkit_uri_scheme_request_get_http_body(request.pointer)
        let stream = body.map { OpaqueGObjectRef(taking: OpaquePointer($0)) }
        let text = stream.flatMap { readSmall($0.pointer, limit: 8 << 10) } ?? ""
        client.setScriptCookie(text, for: page)
        finishCookies(request, status: 200, text: "")
        return true
    }

    private func finishCookies(_ request: GObjectRef<WebKitURISchemeRequest>, status: Int, text: String) {
        let bytes = Data(text.utf8)
        let data = bytes.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
        let stream = g_memory_input_stream_new_from_bytes(data)!
        g_bytes_unref(data)
        finish(request, stream: stream, length: Int64(bytes.count), status: status, reason: nil,
               headers: [("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store"),
                         ("X-Content-Type-Options", "nosniff")])
        g_object_unref(UnsafeMutableRawPointer(stream))
    }

    // Up to `limit` bytes of a request body already in memory (WebKit gives a small one whole).
    private func readSmall(_ stream: OpaquePointer, limit: Int) -> String? {
        var buffer = [UInt8](repeating: 0, count: limit)
        var total = 0
        while total < limit {
            let count = buffer.withUnsafeMutableBytes {
                g_input_stream_read(UnsafeMutablePointer(stream), $0.baseAddress! + total, gsize(limit - total),
                                    nil, nil)
            }
            if count <= 0 { break }
            total += Int(count)
        }
        return String(decoding: buffer[0..<total], as: UTF8.self)
    }
}
