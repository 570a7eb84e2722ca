public import Foundation

/// One request of a load, as `Browser.Configuration.recordsResources` records it: what WebKit
/// reported of the request and its response, joined with the page's Resource Timing entry.
/// `HARLog` writes these as HAR 1.2 entries.
public struct ResourceEntry: Sendable, Codable, Equatable {
    /// One header as WebKit reported it.
    public struct Header: Sendable, Codable, Equatable {
        /// The header's name.
        public var name: String
        /// Its value.
        public var value: String

        /// A header `name: value`.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The phases of the request in milliseconds, as HAR defines them; -1 where the phase did
    /// not apply or the engine did not measure it (a cross-origin resource without
    /// `Timing-Allow-Origin`, a reused connection).
    public struct Timings: Sendable, Codable, Equatable {
        /// Queued before the request could start: from the fetch to DNS (or connect, or send).
        public var blocked: Double
        /// Resolving the host name.
        public var dns: Double
        /// Opening the connection, TLS included.
        public var connect: Double
        /// The TLS handshake.
        public var ssl: Double
        /// Sending the request (Resource Timing does not separate it: 0).
        public var send: Double
        /// From the request sent to the first byte of the response.
        public var wait: Double
        /// Reading the response.
        public var receive: Double

        /// Timings with each phase given.
        public init(
            blocked: Double,
            dns: Double,
            connect: Double,
            ssl: Double,
            send: Double,
            wait: Double,
            receive: Double
        ) {
            (self.blocked, self.dns, self.connect, self.ssl, self.send, self.wait, self.receive) =
                (blocked, dns, connect, ssl, send, wait, receive)
        }

        /// The request's whole time in milliseconds: the sum of the phases that apply, `ssl`
        /// aside (HAR counts it within `connect`).
        public var total: Double {
            [blocked, dns, connect, send, wait, receive].filter { $0 > 0 }.reduce(0, +)
        }
    }

    /// The URL requested (mirror schemes made http(s) again).
    public var url: URL
    /// The request method.
    public var method: String
    /// When the request started, by the wall clock.
    public var startedDateTime: Date
    /// The request headers WebKit's UI process saw (libsoup adds `User-Agent`, `Accept-Encoding`
    /// and cookies after that, so they may be missing here).
    public var requestHeaders: [Header]
    /// The response status, or 0 when there was no response (a failed or blocked request).
    public var status: Int
    /// The response headers.
    public var responseHeaders: [Header]
    /// The response's MIME type, e.g. `text/css`.
    public var mimeType: String
    /// The protocol, e.g. `http/1.1` (Resource Timing's `nextHopProtocol`), or "" when unknown.
    public var httpVersion: String
    /// Bytes on the wire for the response, headers included (0 when unknown or from a cache).
    public var transferSize: Int
    /// Bytes of the response body as received (compressed).
    public var encodedBodySize: Int
    /// Bytes of the response body once decoded.
    public var decodedBodySize: Int
    /// The phases, from Resource Timing (nil when the page had no entry for this request).
    public var timings: Timings?
    /// The booster's handler answered it from the prefetch cache.
    public var fromPrefetchCache: Bool
    /// Why the request failed, or nil.
    public var failure: String?

    /// An entry with every field given.
    public init(url: URL, method: String, startedDateTime: Date, requestHeaders: [Header] = [], status: Int,
                responseHeaders: [Header] = [], mimeType: String = "", httpVersion: String = "", transferSize: Int = 0,
                encodedBodySize: Int = 0, decodedBodySize: Int = 0, timings: Timings? = nil,
                fromPrefetchCache: Bool = false, failure: String? = nil) {
        self.url = url
        self.method = method
        self.startedDateTime = startedDateTime
        self.requestHeaders = requestHeaders
        self.status = status
        self.responseHeaders = responseHeaders
        self.mimeType = mimeType
        self.httpVersion = httpVersion
        self.transferSize = transferSize
        self.encodedBodySize = encodedBodySize
        self.decodedBodySize = decodedBodySize
        self.timings = timings
        self.fromPrefetchCache = fromPrefetchCache
        self.failure = failure
    }
}
