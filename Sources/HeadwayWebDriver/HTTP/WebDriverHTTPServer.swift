import Foundation
import Headway

// The WebDriver server's HTTP/1.1 side on POSIX sockets: it listens, accepts on a thread of its
// own and serves each connection on its own thread (never the engine's), so that sessions run
// beside each other; the handler (`WebDriverService.handle`) does the rest.
package final class WebDriverHTTPServer: @unchecked Sendable {
    package typealias Handler = @Sendable (_ method: String, _ path: String, _ body: Data) async
        -> (status: Int, body: JSONValue)

    package let host: String
    // The port it listens on: the one picked when asked for 0.
    package let port: Int
    private let listener: Int32
    private let wakePipe: (read: Int32, write: Int32)
    private let check: HostCheck
    private let handler: Handler
    private let limits: HTTPLimits
    private let budget: BodyBudget
    private let lock = NSLock()
    private var connections: Set<Int32> = []
    private var stopped = false
    private let acceptEnded = DispatchSemaphore(value: 0)

    // Listens on `host`:`port` and starts accepting. Throws `.serverFailed` when it cannot (the
    // port is in use or not permitted) and `.invalidArgument` for a host that is no address.
    package init(host: String = "127.0.0.1", port: Int = 0, limits: HTTPLimits = .standard,
                 handler: @escaping Handler) throws {
        self.host = host
        self.limits = limits
        budget = BodyBudget(limit: limits.maxBufferedBodyBytes)
        self.handler = handler
        check = HostCheck(boundHost: host)
        (listener, self.port) = try Self.listen(host: host, port: port)
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            close(listener)
            throw HeadwayError(.serverFailed, "could not make a pipe: \(String(cString: strerror(errno)))")
        }
        wakePipe = (fds[0], fds[1])
        for fd in fds { Self.closeOnExec(fd) }
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "webdriver-accept"
        thread.start()
    }

    // Stops accepting, ends every open connection (commands running finish; their answers are
    // dropped) and closes the listening socket. Safe to call more than once.
    package func stop() {
        lock.lock()
        if stopped {
            lock.unlock()
            return
        }
        stopped = true
        for fd in connections { shutdown(fd, Int32(SHUT_RDWR)) }
        lock.unlock()
        var byte: UInt8 = 1
        _ = Glibc.write(wakePipe.write, &byte, 1)
        _ = acceptEnded.wait(timeout: .now() + 5)
    }

    // The body bytes reserved now by requests being read or run.
    package var bodyBytesHeld: Int { budget.bytesHeld }

    // The connections open now.
    package var openConnections: Int {
        lock.lock()
        defer { lock.unlock() }
        return connections.count
    }

    private func acceptLoop() {
        defer {
            close(listener)
            close(wakePipe.read)
            close(wakePipe.write)
            acceptEnded.signal()
        }
        while true {
            var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wakePipe.read, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, -1)
            if ready < 0, errno == EINTR { continue }
            if ready < 0 || fds[1].revents != 0 { return }
            let fd = accept(listener, nil, nil)
            // No web process started meanwhile may hold a client's connection open.
            if fd >= 0 { Self.closeOnExec(fd) }
            guard fd >= 0 else {
                // Out of descriptors, or a connection reset before it was taken: wait a moment.
                if errno != EINTR && errno != ECONNABORTED { usleep(10_000) }
                continue
            }
            lock.lock()
            guard !stopped, connections.count < limits.maxConnections else {
                lock.unlock()
                close(fd)
                continue
            }
            connections.insert(fd)
            lock.unlock()
            let thread = Thread { [self] in serve(fd) }
            thread.name = "webdriver-connection"
            thread.start()
        }
    }

    private func serve(_ fd: Int32) {
        let socket = HTTPSocket(fd: fd, sendTimeout: limits.sendTimeout)
        let connection = HTTPConnection(socket: socket, check: check, handler: handler, limits: limits,
                                        budget: budget)
        if connection.serve() == .linger { socket.linger() }
        lock.lock()
        connections.remove(fd)
        close(fd)
        lock.unlock()
    }

    private static func listen(host: String, port: Int) throws -> (Int32, Int) {
        guard (0...65535).contains(port) else { throw HeadwayError(.invalidArgument, "the port must be 0-65535") }
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
            guard bind(fd, info.ai_addr, info.ai_addrlen) == 0, Glibc.listen(fd, 128) == 0 else {
                failure = String(cString: strerror(errno))
                close(fd)
                continue
            }
            return (fd, boundPort(fd) ?? port)
        }
        throw HeadwayError(.serverFailed, "could not listen on \(host):\(port): \(failure)")
    }

    private static func closeOnExec(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFD)
        if flags >= 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
    }

    private static func boundPort(_ fd: Int32) -> Int? {
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
