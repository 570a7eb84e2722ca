import Foundation

/// A raw-socket HTTP server on 127.0.0.1 that keeps each request's head (request line and
/// header lines, exactly as received) and answers every request with a small page.
public final class HeaderRecordingServer: @unchecked Sendable {
    public let port: Int
    public var url: URL { URL(string: "http://127.0.0.1:\(port)/")! }
    private let listener: Int32
    private let lock = NSLock()
    private var heads: [String] = []

    /// The heads received so far.
    public var requestHeads: [String] { lock.withLock { heads } }

    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw CLIError("the header-recording server could not listen")
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Stops listening; connections in progress end on their own.
    public func stop() { shutdown(listener, Int32(SHUT_RDWR)) }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            Thread.detachNewThread { [self] in serve(client) }
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            while let end = received.range(of: Data("\r\n\r\n".utf8)) {
                lock.withLock { heads.append(String(decoding: received[..<end.lowerBound], as: UTF8.self)) }
                received.removeSubrange(..<end.upperBound)
                let body = "<!doctype html><title>recorded</title>"
                let response =
                    "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
                _ = response.withCString { send(client, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
            }
            let count = recv(client, &buffer, buffer.count, 0)
            guard count > 0 else { return }
            received.append(contentsOf: buffer[..<count])
        }
    }
}
