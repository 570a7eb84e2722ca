import Foundation

// A subresource's redirect is followed inside the handler (WebKitGTK's scheme handlers cannot
// answer with one), so WebKit takes the answer for the URL it asked for. When the redirect led
// to another origin, a page could then read what that origin never shared with it. A browser
// following the redirect itself would check: so does the handler, for the requests a page can
// read (fetch and XHR, and anything fetched in CORS mode).
extension SchemeHandler {
    // Fails the request and returns true when its redirect led to another origin that does not
    // let the page read the answer (`headers`, the final response's).
    func refusesCrossOriginRead(_ exchange: Exchange, finalURL: URL, headers: [(String, String)]) -> Bool {
        guard !exchange.isMainFrame, let from = Self.origin(of: exchange.url), let to = Self.origin(of: finalURL), from != to else {
            return false
        }
        guard Self.isRead(exchange.headers, answer: headers) else { return false }
        // The page's real origin: `Origin` (made real) when WebKit sent one, else the URL it
        // asked for, same-origin to WebKit.
        let page = headerValue(exchange.headers, "Origin") ?? from
        let allowed = headers.first { $0.0.lowercased() == "access-control-allow-origin" }?.1
        let mode = headerValue(exchange.headers, "Sec-Fetch-Mode")?.lowercased()
        if mode == nil || mode == "cors", allowed == "*" || allowed == page { return false }
        fail(exchange.request, HeadwayError(.blockedURL, "\(exchange.url.absoluteString) redirected to \(finalURL.absoluteString), "
            + "another origin, which does not let \(page) read it"))
        return true
    }

    // Whether the page can read the answer to a request with `request` headers, rather than only
    // show it (an image, a style sheet, a script, a frame fetched without CORS). WebKit sends
    // Sec-Fetch-* only on requests it takes for cross-origin ones; for the others, what they
    // accept and what came back tell a fetch or an XHR from what is shown.
    static func isRead(_ request: HeaderList, answer: [(String, String)]) -> Bool {
        if let mode = headerValue(request, "Sec-Fetch-Mode")?.lowercased() {
            return mode == "cors" || mode == "same-origin" || headerValue(request, "Sec-Fetch-Dest")?.lowercased() == "empty"
        }
        let accept = headerValue(request, "Accept")?.lowercased() ?? ""
        if ["image/", "text/css", "video/", "audio/"].contains(where: accept.hasPrefix) { return false }
        let type = answer.first { $0.0.lowercased() == "content-type" }?.1.lowercased() ?? ""
        let shown = ["javascript", "ecmascript", "text/css", "image/", "font/", "video/", "audio/"]
        return !shown.contains(where: type.contains)
    }
}
