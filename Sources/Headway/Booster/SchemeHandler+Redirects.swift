import Foundation

// A subresource's redirect is followed inside the handler (WebKitGTK's scheme handlers cannot
// answer with one), so WebKit takes the answer for the URL it asked for, of the page's origin.
// When the redirect led to another origin, that would hand the page what the other origin
// never shared with it. So the handler checks what a browser following the redirect would:
// - what is only shown (an image, a style sheet, a script, a font, media) is served;
// - a frame or a document never takes another origin's content as the page's;
// - anything the page can read is served only when that origin's CORS answer allows the page,
//   with credentials when cookies or credentials went with the request.
extension SchemeHandler {
    // Fails the request and returns true when its redirect led to another origin whose answer
    // (`headers`) the page may not have; `credentials` says whether cookies or HTTP
    // credentials went with the request.
    func refusesCrossOriginRead(_ exchange: Exchange, finalURL: URL, headers: [(String, String)], credentials: Bool) -> Bool {
        guard !exchange.isMainFrame, let from = Self.origin(of: exchange.url), let to = Self.origin(of: finalURL), from != to else {
            return false
        }
        // Sec-Fetch-* come from WebKit (a page cannot set them), sent on requests it takes for
        // cross-origin ones; for the others, what was accepted and what came back tell.
        let destination = headerValue(exchange.headers, "Sec-Fetch-Dest")?.lowercased()
        let mode = headerValue(exchange.headers, "Sec-Fetch-Mode")?.lowercased()
        let type = headers.first { $0.0.lowercased() == "content-type" }?.1.lowercased() ?? ""
        if let destination {
            if mode == "no-cors", Self.shownDestinations.contains(destination) { return false }
        } else if Self.looksShown(accept: headerValue(exchange.headers, "Accept")?.lowercased() ?? "", type: type) {
            return false
        }
        let isDocument = type.contains("html") || type.contains("xml") && !type.contains("svg")
        let isFrame = destination.map(Self.frameDestinations.contains) ?? isDocument
        let page = headerValue(exchange.headers, "Origin") ?? from
        if !isFrame, mode == nil || mode == "cors" {
            let allowed = headers.first { $0.0.lowercased() == "access-control-allow-origin" }?.1
            let withCredentials = headers.first { $0.0.lowercased() == "access-control-allow-credentials" }?.1 == "true"
            if credentials ? allowed == page && withCredentials : allowed == "*" || allowed == page { return false }
        }
        fail(exchange.request, HeadwayError(.blockedURL, "\(exchange.url.absoluteString) redirected to \(finalURL.absoluteString), "
            + "another origin, which does not let \(page) \(isFrame ? "show it as its own" : "read it")"))
        return true
    }

    private static let shownDestinations: Set<String> = ["image", "style", "script", "font", "audio", "video", "track"]
    private static let frameDestinations: Set<String> = ["iframe", "frame", "object", "embed", "document", "worker", "sharedworker"]

    // An image or a style sheet, by what the request accepted (WebKit's own Accept for them)
    // and what came back. A page can send a fetch with such an Accept and read another origin's
    // images or style sheets this way: the residue of a check WebKit gives no better signal for.
    private static func looksShown(accept: String, type: String) -> Bool {
        (accept.hasPrefix("image/") && type.hasPrefix("image/")) || (accept.hasPrefix("text/css") && type.hasPrefix("text/css"))
    }
}
