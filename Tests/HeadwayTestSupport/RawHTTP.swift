import Foundation

/// One HTTP/1.1 GET on a TCP connection of its own, with nothing between the test and the
/// socket: the connection is closed by the client right after the response, keep-alive or not.
public enum RawHTTP {
    /// Connects to 127.0.0.1:`port`, sends GET `path` (with `Connection: close` unless
    /// `keepAlive`), reads the whole response, closes, and returns its status code.
    public static func get(port: Int, path: String = "/", keepAlive: Bool = true) throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw CLIError("socket: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw CLIError("connect: \(String(cString: strerror(errno)))") }
        let request =
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(keepAlive ? "" : "Connection: close\r\n")\r\n"
        guard send(fd, request, request.utf8.count, Int32(MSG_NOSIGNAL)) == request.utf8.count else {
            throw CLIError("send: \(String(cString: strerror(errno)))")
        }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        while !isComplete(response) {
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            response += buffer[0..<count]
        }
        let head = String(decoding: response.prefix(64), as: UTF8.self)
        guard head.hasPrefix("HTTP/1."), let status = Int(head.split(separator: " ").dropFirst().first ?? "") else {
            throw CLIError("not an HTTP response: \(head)")
        }
        return status
    }

    /// Whether `bytes` hold the headers and a body as long as Content-Length says.
    private static func isComplete(_ bytes: [UInt8]) -> Bool {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard
            let end = (0...max(0, bytes.count - 4)).first(where: {
                bytes.count >= 4 && Array(bytes[$0..<$0 + 4]) == separator
            })
        else { return false }
        let headers = String(decoding: bytes[..<end], as: UTF8.self).lowercased()
        let length = headers.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        return bytes.count >= end + 4 + length
    }
}
