import Foundation
import Headway

// The bytes of one answer: JSON, never cached, with its length.
enum HTTPResponse {
    static func bytes(status: Int, body: JSONValue, keepAlive: Bool) -> Data {
        let json = (try? encoder.encode(body)) ?? Data(#"{"value":null}"#.utf8)
        var head = "HTTP/1.1 \(status) \(reason(status))\r\n"
        head += "Content-Type: application/json; charset=utf-8\r\n"
        head += "Cache-Control: no-cache\r\n"
        head += "Content-Length: \(json.count)\r\n"
        if !keepAlive { head += "Connection: close\r\n" }
        head += "\r\n"
        return Data(head.utf8) + json
    }

    private static let encoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return encoder
    }()

    static let continueLine = Data("HTTP/1.1 100 Continue\r\n\r\n".utf8)

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
