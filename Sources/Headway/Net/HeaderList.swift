import CWebKit
import Foundation

// HTTP headers in order, as libsoup gives them (names may repeat).
typealias HeaderList = [(String, String)]

// The first value of header `name` (case-insensitive).
func headerValue(_ headers: HeaderList, _ name: String) -> String? {
    headers.first { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
}

// Every value of header `name` (case-insensitive).
func headerValues(_ headers: HeaderList, _ name: String) -> [String] {
    headers.filter { $0.0.caseInsensitiveCompare(name) == .orderedSame }.map(\.1)
}

// Copies a SoupMessageHeaders into a list.
func headerList(_ headers: OpaquePointer) -> HeaderList {
    var list: HeaderList = []
    var iter = SoupMessageHeadersIter()
    soup_message_headers_iter_init(&iter, headers)
    var name: UnsafePointer<CChar>?
    var value: UnsafePointer<CChar>?
    while soup_message_headers_iter_next(&iter, &name, &value) != 0 {
        if let name, let value { list.append((String(cString: name), String(cString: value))) }
    }
    return list
}
