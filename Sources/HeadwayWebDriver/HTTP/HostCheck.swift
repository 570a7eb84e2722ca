import Foundation
import Headway

// A DNS-rebinding and cross-site defence, as geckodriver has: on a server bound to loopback, a
// request must name the server by an IP address, "localhost" or the host it was bound to (a page
// on evil.example whose name was rebound to 127.0.0.1 sends "Host: evil.example"), and may not
// come from a web page (browsers send Origin on a cross-site fetch) other than the server's own
// origin, which some WebDriver clients send on their WebSocket (websocket-client: Origin
// http://127.0.0.1:PORT), as chromedriver allows it.
package struct HostCheck: Sendable {
    // The names a Host header may give besides IP addresses, lowercased.
    package let allowedNames: Set<String>
    // Whether the check applies: only when bound to a loopback address.
    package let enforced: Bool
    // The port the server listens on: an Origin of http://(loopback):port is the server's own.
    package let port: Int?

    package init(boundHost: String, port: Int? = nil) {
        let host = Self.trimmed(boundHost)
        allowedNames = ["localhost", host]
        enforced = Self.isLoopback(host)
        self.port = port
    }

    // Nil when the request may go on; else why not.
    package func refusal(for head: HTTPRequestHead) -> HTTPFailure? {
        if let failure = head.hostFailure { return failure }
        guard enforced else { return nil }
        if let origin = head.header("Origin"), !isOwn(origin: origin) {
            return HTTPFailure(403, "requests from web pages are refused (Origin: \(origin.prefix(200)))")
        }
        guard let host = head.header("Host") else {
            return head.version == "HTTP/1.0" ? nil : HTTPFailure(400, "an HTTP/1.1 request needs a Host header")
        }
        let name = Self.trimmed(Self.name(in: host))
        if Self.isIPAddress(name) || allowedNames.contains(name) { return nil }
        return HTTPFailure(500, "invalid Host header \(host.prefix(200)): "
            + "name the server by an IP address or localhost")
    }

    // Whether `origin` is this server's own: http, a loopback address or allowed name, its port.
    func isOwn(origin: String) -> Bool {
        guard let port, let url = URL(string: origin), url.scheme?.lowercased() == "http",
              let host = url.host.map(Self.trimmed), url.port == port, url.path.isEmpty || url.path == "/" else {
            return false
        }
        return allowedNames.contains(host) || (Self.isIPAddress(host) && Self.isLoopback(host))
    }

    // The host of a Host header without its port: "[::1]:4444" gives "::1".
    static func name(in host: String) -> String {
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            return String(host[host.index(after: host.startIndex)..<close])
        }
        if host.filter({ $0 == ":" }).count == 1, let colon = host.firstIndex(of: ":") {
            return String(host[..<colon])
        }
        return host
    }

    private static func trimmed(_ host: String) -> String {
        var host = host.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        while host.hasSuffix(".") { host.removeLast() }
        return host
    }

    static func isIPAddress(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1
    }

    static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" { return true }
        var v4 = in_addr()
        guard inet_pton(AF_INET, host, &v4) == 1 else { return false }
        return UInt32(bigEndian: v4.s_addr) >> 24 == 127
    }
}
