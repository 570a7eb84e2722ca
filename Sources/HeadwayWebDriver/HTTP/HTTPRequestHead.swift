import Foundation
import Headway

// A request's line and headers, parsed leniently where HTTP/1.1 allows (bare LF line ends) and
// strictly where a lenient parser invites smuggling (folded lines, two different Content-Lengths,
// Transfer-Encoding beside Content-Length).
package struct HTTPRequestHead: Sendable, Equatable {
    package var method: String
    // The path and query: an absolute-form target ("http://host/path") keeps only those.
    package var target: String
    // An absolute-form target's host and port ("host:4444"); nil for a path.
    package var authority: String?
    package var version: String
    package var headers: [(name: String, value: String)]

    package static func == (a: Self, b: Self) -> Bool {
        a.method == b.method && a.target == b.target && a.authority == b.authority && a.version == b.version
            && a.headers.map(\.name) == b.headers.map(\.name) && a.headers.map(\.value) == b.headers.map(\.value)
    }

    // The first value of header `name` (case-insensitive).
    package func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    // Why the request names its host wrongly (RFC 9112 3.2: 400 for more than one Host, and a Host
    // that is not the authority of an absolute-form target), or nil.
    package var hostFailure: HTTPFailure? {
        let hosts = headers.filter { $0.name.caseInsensitiveCompare("Host") == .orderedSame }
        guard hosts.count <= 1 else { return HTTPFailure(400, "a request may have only one Host header") }
        if let authority, authority.caseInsensitiveCompare(hosts.first?.value ?? "") != .orderedSame {
            return HTTPFailure(400, "the request line names the host \(authority.prefix(200)), "
                + "its Host header \(hosts.first?.value.prefix(200) ?? "nothing")")
        }
        return nil
    }

    // Whether the connection stays open after the answer.
    package var keepAlive: Bool {
        let connection = header("Connection")?.lowercased() ?? ""
        if version == "HTTP/1.0" { return connection.contains("keep-alive") }
        return !connection.contains("close")
    }

    // The body's length from Content-Length (0 without one). Throws for a chunked or otherwise
    // encoded body (411) and a malformed or contradictory length (400).
    package func contentLength() throws(HTTPFailure) -> Int {
        if header("Transfer-Encoding") != nil {
            guard header("Content-Length") == nil else {
                throw HTTPFailure(400, "a request may not have both Transfer-Encoding and Content-Length")
            }
            throw HTTPFailure(411, "chunked request bodies are not supported: send the body with a Content-Length")
        }
        let values = headers.filter { $0.name.caseInsensitiveCompare("Content-Length") == .orderedSame }
            .flatMap { $0.value.split(separator: ",", omittingEmptySubsequences: false) }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard let first = values.first else { return 0 }
        guard values.allSatisfy({ $0 == first }), !first.isEmpty, first.count <= 18,
              first.allSatisfy({ $0.isASCII && $0.isNumber }), let length = Int(first) else {
            throw HTTPFailure(400, "the Content-Length header is not one decimal number")
        }
        return length
    }

    // Parses the bytes before the blank line that ends the head.
    package static func parse(_ bytes: ArraySlice<UInt8>) throws(HTTPFailure) -> HTTPRequestHead {
        // By bytes: as Characters, "\r\n" is one grapheme and never equals "\n".
        var lines = try bytes.split(separator: 10, omittingEmptySubsequences: false).map { line throws(HTTPFailure) in
            let line = line.last == 13 ? line.dropLast() : line
            guard let text = String(validating: line, as: UTF8.self) ?? String(bytes: line, encoding: .isoLatin1) else {
                throw HTTPFailure(400, "the request head is not text")
            }
            return Substring(text)
        }
        // RFC 9112 2.2: empty lines before the request line are ignored.
        while lines.first?.isEmpty == true { lines.removeFirst() }
        guard let requestLine = lines.first else { throw HTTPFailure(400, "the request has no request line") }
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(isTokenCharacter) else {
            throw HTTPFailure(400, "the request line is not \"METHOD /path HTTP/1.1\"")
        }
        guard parts[2] == "HTTP/1.1" || parts[2] == "HTTP/1.0" else {
            throw HTTPFailure(parts[2].hasPrefix("HTTP/") ? 505 : 400, "only HTTP/1.1 and HTTP/1.0 are spoken here")
        }
        let (target, authority) = try Self.path(of: parts[1])
        var headers: [(String, String)] = []
        for line in lines.dropFirst() where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":"), line.first != " ", line.first != "\t" else {
                throw HTTPFailure(400, "a header line is not \"Name: value\" (folded lines are not accepted)")
            }
            let name = line[..<colon]
            guard !name.isEmpty, name.allSatisfy(isTokenCharacter) else {
                throw HTTPFailure(400, "a header name has characters a header name may not have")
            }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
            guard !value.contains(where: { $0 == "\r" || $0 == "\0" }) else {
                throw HTTPFailure(400, "a header value holds a control character")
            }
            headers.append((String(name), value))
        }
        return HTTPRequestHead(method: String(parts[0]), target: target, authority: authority,
                               version: String(parts[2]), headers: headers)
    }

    private static func path(of target: Substring) throws(HTTPFailure) -> (String, String?) {
        if target.hasPrefix("/") { return (String(target), nil) }
        // The absolute form a proxy sends: the path and query are what count, and its authority
        // (without user information) must be what Host says.
        if target.lowercased().hasPrefix("http://"), let url = URLComponents(string: String(target)) {
            let path = url.percentEncodedPath.isEmpty ? "/" : url.percentEncodedPath
            let rest = target.dropFirst("http://".count)
            let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            let host = authority.lastIndex(of: "@").map { authority[authority.index(after: $0)...] } ?? authority
            return (url.percentEncodedQuery.map { "\(path)?\($0)" } ?? path, String(host))
        }
        throw HTTPFailure(400, "the request target must be a path beginning with /")
    }

    private static func isTokenCharacter(_ character: Character) -> Bool {
        guard character.isASCII, let ascii = character.asciiValue, ascii > 32, ascii < 127 else { return false }
        return !"\"(),/:;<=>?@[\\]{}".contains(character)
    }
}

// A request the HTTP layer answers itself, before any command: its status and why.
package struct HTTPFailure: Error, Sendable, Equatable {
    package var status: Int
    package var message: String

    package init(_ status: Int, _ message: String) {
        self.status = status
        self.message = message
    }

    // The WebDriver error body clients read: "invalid argument" for what the client sent wrong.
    package var body: JSONValue {
        let code: ErrorCode = status >= 500 && status != 505 ? .unknownError : .invalidArgument
        return WebDriverError(code, message).body
    }
}
