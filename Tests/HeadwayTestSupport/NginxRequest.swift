import Foundation

/// One line of an ``NginxServer``'s access log: a request nginx has finished answering.
/// Header fields are nil when the request did not send that header.
public struct NginxRequest: Sendable, Equatable, Decodable {
    public var method: String
    /// The path and query as the client sent them, e.g. `/a.css?v=2`.
    public var uri: String
    public var status: Int
    /// Body bytes sent, after compression and counting chunked framing.
    public var bytesSent: Int
    /// The response's `Content-Encoding` (`gzip` when nginx compressed it).
    public var contentEncoding: String?
    public var secPurpose: String?
    public var ifNoneMatch: String?
    public var ifModifiedSince: String?
    public var acceptEncoding: String?
    public var userAgent: String?
    public var acceptLanguage: String?
    public var cookie: String?
    /// The `X-Headway-Test` header, which tests send to see a header arrive.
    public var testHeader: String?
    /// When nginx logged the request (its end), by the wall clock in seconds since 1970, to the ms.
    public var time: Double

    /// The URI without its query.
    public var path: String { String(uri.prefix { $0 != "?" }) }

    private enum CodingKeys: String, CodingKey {
        case method, uri, status, bytesSent, contentEncoding, secPurpose, ifNoneMatch, ifModifiedSince,
             acceptEncoding, userAgent, acceptLanguage, cookie, testHeader, time
    }

    // The `log_format` that writes what `init(from:)` reads. With `escape=json` an absent header
    // is written as an empty string.
    static let logFormat = """
        log_format headway escape=json '{"method":"$request_method","uri":"$request_uri","status":$status,'
            '"bytesSent":$body_bytes_sent,"contentEncoding":"$sent_http_content_encoding",'
            '"secPurpose":"$http_sec_purpose","ifNoneMatch":"$http_if_none_match",'
            '"ifModifiedSince":"$http_if_modified_since","acceptEncoding":"$http_accept_encoding",'
            '"userAgent":"$http_user_agent","acceptLanguage":"$http_accept_language","cookie":"$http_cookie",'
            '"testHeader":"$http_x_headway_test","time":$msec}';
        """

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func header(_ key: CodingKeys) throws -> String? {
            let value = try c.decode(String.self, forKey: key)
            return value.isEmpty ? nil : value
        }
        method = try c.decode(String.self, forKey: .method)
        uri = try c.decode(String.self, forKey: .uri)
        status = try c.decode(Int.self, forKey: .status)
        bytesSent = try c.decode(Int.self, forKey: .bytesSent)
        contentEncoding = try header(.contentEncoding)
        secPurpose = try header(.secPurpose)
        ifNoneMatch = try header(.ifNoneMatch)
        ifModifiedSince = try header(.ifModifiedSince)
        acceptEncoding = try header(.acceptEncoding)
        userAgent = try header(.userAgent)
        acceptLanguage = try header(.acceptLanguage)
        cookie = try header(.cookie)
        time = try c.decode(Double.self, forKey: .time)
        testHeader = try header(.testHeader)
    }

    // Parses a whole access log; a last line without its newline is left out.
    static func parse(log: Data) throws -> [NginxRequest] {
        let decoder = JSONDecoder()
        var lines = log.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
        if log.last != UInt8(ascii: "\n"), !lines.isEmpty { lines.removeLast() }
        return try lines.map { try decoder.decode(NginxRequest.self, from: Data($0)) }
    }
}
