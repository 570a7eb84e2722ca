import Foundation
import Headway

// The bounds every connection of the WebDriver server lives within (`standard` unless a test
// needs shorter ones).
package struct HTTPLimits: Sendable {
    // The largest request body read: Selenium's file upload sends a whole zip file in base64.
    package var maxBodyBytes = 64 << 20
    // Body bytes received and held at once over every connection: beyond it a request is
    // answered 503. A body counts what has arrived, not what its Content-Length announces.
    package var maxBufferedBodyBytes = 256 << 20
    // The request line and headers together (RFC 9112: 431 beyond).
    package var maxHeaderBytes = 64 << 10
    // A request's head must be complete within this much time of its first byte, and a new
    // connection's first head within this much time of connecting (slowloris, idle sockets).
    package var headerTimeout: Duration = .seconds(10)
    // A body may take this long before the floor below applies to it...
    package var bodyGrace: Duration = .seconds(10)
    // ...and must then have arrived at least at this rate since its head: a slower one is dropped.
    package var minBodyBytesPerSecond = 16 << 10
    // A keep-alive connection with no request for this long is closed (Selenium's clients pool
    // connections and reopen one that was closed).
    package var keepAliveTimeout: Duration = .seconds(120)
    // An answer must be read within this much time (plus its size at the body floor's rate).
    package var sendTimeout: Duration = .seconds(30)
    // Connections open at once. At the cap a new connection closes the one idle longest (no
    // request under way); with none idle, the new one is closed.
    package var maxConnections = 256

    package init() {}

    package static let standard = HTTPLimits()
}
