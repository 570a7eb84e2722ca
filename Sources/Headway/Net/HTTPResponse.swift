public import Foundation

/// A canned response for `HTTPServer.route`.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: Data
    /// Never answer: the request stays open until the client gives up or the server stops.
    package var hangs = false

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

    /// A request that never gets an answer.
    package static let hang: HTTPResponse = {
        var response = HTTPResponse()
        response.hangs = true
        return response
    }()
}

/// One request the server answered, for logs and request counting.
public struct ServedRequest: Sendable, Equatable {
    public var method: String
    public var path: String
    public var status: Int
    public var bytes: Int
    public var milliseconds: Double
    /// The request's `Cookie` header, if any.
    public var cookie: String?
    /// The request's `Sec-Purpose` header (`prefetch` for Headway's prefetches), if any.
    public var purpose: String?

    public var logLine: String {
        "\(method) \(path) \(status) \(bytes) B \(String(format: "%.1f", milliseconds)) ms"
    }
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
