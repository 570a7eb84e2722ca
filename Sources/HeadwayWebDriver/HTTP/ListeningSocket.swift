import Foundation
import Headway

// The server's sockets are close-on-exec: WebKit's processes inherit every descriptor that is not,
// and one holding the listening socket would keep the port, one holding a connection would keep
// it open after the server closed it. NIO opens and accepts sockets without the flag, so the
// server opens its listening socket itself and marks each connection as NIO accepts it.
enum ListeningSocket {
    // A socket listening on `host`:`port` (the first of its addresses that works) and its port.
    static func open(host: String, port: Int) throws -> (fd: Int32, port: Int) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV | AI_PASSIVE
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let list else {
            throw HeadwayError(.invalidArgument, "\(host) is not an address to listen on: "
                + String(cString: gai_strerror(status)))
        }
        defer { freeaddrinfo(list) }
        var failure = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let info = entry?.pointee {
            entry = info.ai_next
            let fd = socket(info.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { continue }
            var one: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            guard bind(fd, info.ai_addr, info.ai_addrlen) == 0, listen(fd, 256) == 0 else {
                failure = String(cString: strerror(errno))
                close(fd)
                continue
            }
            return (fd, localPort(fd) ?? port)
        }
        throw HeadwayError(.serverFailed, "could not listen on \(host):\(port): \(failure)")
    }

    // Marks close-on-exec every TCP socket of this process on local port `port` that is not yet:
    // the connections accepted on it (WebKit's own sockets are Unix sockets, never touched).
    static func markConnections(port: Int) {
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            guard let fd = Int32(entry), fd > 2 else { continue }
            let flags = fcntl(fd, F_GETFD)
            guard flags >= 0, flags & FD_CLOEXEC == 0 else { continue }
            var status = stat()
            guard fstat(fd, &status) == 0, status.st_mode & mode_t(S_IFMT) == mode_t(S_IFSOCK),
                  localPort(fd) == port else { continue }
            _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC)
        }
    }

    // The local port of an IPv4 or IPv6 socket.
    private static func localPort(_ fd: Int32) -> Int? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let got = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard got == 0 else { return nil }
        let family = Int32(storage.ss_family)
        return withUnsafePointer(to: &storage) { pointer in
            switch family {
            case AF_INET:
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    Int(UInt16(bigEndian: $0.pointee.sin_port))
                }
            case AF_INET6:
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    Int(UInt16(bigEndian: $0.pointee.sin6_port))
                }
            default: nil
            }
        }
    }
}
