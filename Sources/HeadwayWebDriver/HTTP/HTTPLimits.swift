import Foundation
import Headway

// The bounds every connection of the WebDriver server lives within.
package enum HTTPLimits {
    // The largest request body read: Selenium's file upload sends a whole zip file in base64.
    package static let maxBodyBytes = 64 << 20
    // The request line and headers together.
    package static let maxHeaderBytes = 64 << 10
    // A request's head must arrive within this much time of its first byte (slowloris).
    package static let headerTimeout: Duration = .seconds(30)
    // A body must keep arriving: at most this much time without a byte.
    package static let bodyIdleTimeout: Duration = .seconds(30)
    // A keep-alive connection with no request for this long is closed (Selenium's clients pool
    // connections and reopen one that was closed).
    package static let keepAliveTimeout: Duration = .seconds(120)
    // A client that reads none of its answer for this long is dropped.
    package static let sendTimeout: Duration = .seconds(30)
    // Connections open at once; more are closed as they come.
    package static let maxConnections = 256
}
