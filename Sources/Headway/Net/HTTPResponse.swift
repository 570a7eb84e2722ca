public import Foundation

/// A canned response for `HTTPServer.route`.
public struct HTTPResponse: Sendable {
    /// The HTTP status code.
    public var status: Int
    /// Header names and values, in order.
    public var headers: [(String, String)]
    /// The body bytes.
    public var body: Data
    // Never answer: the request stays open until the client gives up or the server stops.
    package var hangs = false

    /// A response with `status`, `headers` and `body`; 200 with no headers and an empty body by
    /// default.
    public init(status: Int = 200, headers: [(String, String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// An HTML page.
    public static func html(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "text/html; charset=utf-8")], body: Data(text.utf8))
    }

    /// A redirect to `location`.
    public static func redirect(to location: String, status: Int = 302) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Location", location)])
    }

    // A request that never gets an answer.
    package static let hang: HTTPResponse = {
        var response = HTTPResponse()
        response.hangs = true
        return response
    }()
}

/// One request the server answered, for logs and request counting.
public struct ServedRequest: Sendable, Equatable {
    /// The request method.
    public var method: String
    /// The request path, without the query.
    public var path: String
    /// The status the server answered with.
    public var status: Int
    /// Body bytes sent.
    public var bytes: Int
    /// The time from the request's arrival to the response's last byte, emulated latency and
    /// bandwidth included.
    public var duration: Duration
    /// The request's `Cookie` header, if any.
    public var cookie: String?
    /// The request's `Sec-Purpose` header (`prefetch` for Headway's prefetches), if any.
    public var purpose: String?
}

enum ContentType {
    static func of(_ path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "html", "htm": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "json": "application/json"
        case "txt": "text/plain; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "gif": "image/gif"
        case "webp": "image/webp"
        case "bmp": "image/bmp"
        case "ico": "image/x-icon"
        case "woff": "font/woff"
        case "woff2": "font/woff2"
        case "wasm": "application/wasm"
        case "xml": "application/xml"
        default: "application/octet-stream"
        }
    }
}
