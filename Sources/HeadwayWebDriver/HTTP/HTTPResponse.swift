import Foundation
import Headway
import NIOCore
import NIOHTTP1

// One answer: JSON, never cached, with its length.
enum HTTPResponse {
    static func parts(status: Int, body: JSONValue, keepAlive: Bool) -> (HTTPResponseHead, ByteBuffer) {
        let json = (try? encoder.encode(body)) ?? Data(#"{"value":null}"#.utf8)
        var headers = HTTPHeaders([
            ("Content-Type", "application/json; charset=utf-8"),
            ("Cache-Control", "no-cache"),
            ("Content-Length", String(json.count)),
        ])
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        let head = HTTPResponseHead(version: .http1_1, status: .init(statusCode: status, reasonPhrase: reason(status)),
                                    headers: headers)
        return (head, ByteBuffer(bytes: json))
    }

    private static let encoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return encoder
    }()

    static let `continue` = HTTPResponseHead(version: .http1_1, status: .continue)

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 400: "Bad Request"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 417: "Expectation Failed"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status"
        }
    }
}
