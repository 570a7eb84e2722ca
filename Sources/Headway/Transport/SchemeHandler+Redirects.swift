import CWebKit
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
    func refusesCrossOriginRead(
        _ exchange: Exchange,
        finalURL: URL,
        headers: [(String, String)],
        credentials: Bool
    ) -> Bool {
        guard !exchange.isMainFrame, let from = Self.origin(of: exchange.url), let to = Self.origin(of: finalURL),
              from != to
        else {
            return false
        }
        // Sec-Fetch-* come from WebKit (a page cannot set them), sent on requests it takes for
        // cross-origin ones; for the others, what was accepted and what came back tell.
        let destination = headerValue(exchange.headers, "Sec-Fetch-Dest")?.lowercased()
        let mode = headerValue(exchange.headers, "Sec-Fetch-Mode")?.lowercased()
        let accept = headerValue(exchange.headers, "Accept")?.lowercased() ?? ""
        let type = headerValue(headers, "Content-Type")?.lowercased() ?? ""
        if let destination {
            if mode == "no-cors", Self.shownDestinations.contains(destination) { return false }
        } else if Self.looksShown(accept: accept, type: type) {
            return false
        }
        let isDocument = type.contains("html") || type.contains("xml") && !type.contains("svg")
        // Without Sec-Fetch-Dest, a document asked for as one (a fetch accepts */* unless the
        // page says otherwise, and saying text/html only gets it refused).
        let isFrame = destination.map(Self.frameDestinations.contains) ?? (isDocument && accept.hasPrefix("text/html"))
        let page = headerValue(exchange.headers, "Origin") ?? from
        if !isFrame, mode == nil || mode == "cors" {
            let allowed = headerValue(headers, "Access-Control-Allow-Origin")
            let withCredentials = headerValue(headers, "Access-Control-Allow-Credentials") == "true"
            if credentials ? allowed == page && withCredentials : allowed == "*" || allowed == page { return false }
        }
        fail(
            exchange.request,
            HeadwayError(
                .blockedURL,
                "\(exchange.url.absoluteString) redirected to \(finalURL.absoluteString), "
                    + "another origin, which does not let \(page) \(isFrame ? "show it as its own" : "read it")"
            )
        )
        return true
    }

    private static let shownDestinations: Set<String> = ["image", "style", "script", "font", "audio", "video", "track"]
    private static let frameDestinations: Set<String> = [
        "iframe", "frame", "object", "embed", "document", "worker", "sharedworker",
    ]

    // An image, a style sheet or a script, by what the request accepted (WebKit's own Accept
    // for them) and what came back. A page can send a fetch with such an Accept, or none, and
    // read another origin's images, style sheets or scripts this way: the residue of a check
    // WebKit gives no better signal for, kept so that a page's own script or image behind such
    // a redirect (a CDN) still loads.
    private static func looksShown(accept: String, type: String) -> Bool {
        (accept.hasPrefix("image/") && type.hasPrefix("image/"))
            || (accept.hasPrefix("text/css") && type.hasPrefix("text/css"))
            || (accept == "*/*" && (type.contains("javascript") || type.contains("ecmascript")))
    }

    // Sends a subresource's request, following its redirects here. One that is not a GET or a
    // HEAD follows them one by one, within its origin only (a 303, or a 301 or 302 after a POST,
    // goes on as a GET, as browsers do): a redirect to another origin would have taken its
    // method, body and cookies there without the preflight a browser asks for first.
    func sendFollowing(method: String, url: URL, headers: HeaderList, body: Data?,
                       cancellable: UnsafeMutablePointer<GCancellable>?) async throws -> SoupClient.Response {
        if method == "GET" || method == "HEAD" {
            return try await client.send(
                method: method,
                url: url,
                headers: headers,
                body: body,
                followRedirects: true,
                cancellable: cancellable
            )
        }
        var url = url
        for _ in 0...20 {
            let response = try await client.send(
                method: method,
                url: url,
                headers: headers,
                body: body,
                cancellable: cancellable
            )
            guard [301, 302, 303, 307, 308].contains(response.status), let location = response.header("Location"),
                  let next = URL(string: location, relativeTo: url)?.absoluteURL else { return response }
            // The redirect's own body is read away here, off the engine thread's blocking path.
            _ = try? await client.readAll(response.stream, limit: 64 << 10, cancellable: cancellable)
            if response.status == 303 || (response.status <= 302 && method == "POST") {
                // Now a GET without a body, which may go anywhere; where it ends is checked as any
                // redirect (`refusesCrossOriginRead`).
                let kept = headers.filter { !$0.0.lowercased().hasPrefix("content-") }
                return try await client.send(
                    method: "GET",
                    url: next,
                    headers: kept,
                    body: nil,
                    followRedirects: true,
                    cancellable: cancellable
                )
            }
            guard Self.origin(of: next) == Self.origin(of: url) else {
                throw HeadwayError(
                    .blockedURL,
                    "\(url.absoluteString) redirected a \(method) to \(next.absoluteString), another origin: "
                        + "Headway does not send it there"
                )
            }
            url = next
        }
        throw HeadwayError(
            .loadFailed,
            "could not load \(url.absoluteString): Load cannot follow more than 20 redirections"
        )
    }
}
