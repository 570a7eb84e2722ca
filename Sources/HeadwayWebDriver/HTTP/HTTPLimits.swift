import Foundation
import Headway

// The bounds every connection of the WebDriver server lives within (`standard` unless a test
// needs shorter ones).
package struct HTTPLimits: Sendable {
    // The largest request body read: Selenium's file upload sends a whole zip file in base64.
    package var maxBodyBytes = 64 << 20
    // Body bytes held at once over every connection: beyond it a request is answered 503.
    package var maxBufferedBodyBytes = 256 << 20
    // The request line and headers together.
    package var maxHeaderBytes = 64 << 10
    // A request's head must arrive within this much time of its first byte (slowloris).
    package var headerTimeout: Duration = .seconds(30)
    // A body must keep arriving: at most this much time without a byte.
    package var bodyIdleTimeout: Duration = .seconds(30)
    // A keep-alive connection with no request for this long is closed (Selenium's clients pool
    // connections and reopen one that was closed).
    package var keepAliveTimeout: Duration = .seconds(120)
    // A client that reads none of its answer for this long is dropped.
    package var sendTimeout: Duration = .seconds(30)
    // Connections open at once; more are closed as they come.
    package var maxConnections = 256

    package init() {}

    package static let standard = HTTPLimits()
}
