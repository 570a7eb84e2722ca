import Foundation

/// A raw-socket server on 127.0.0.1 that never lets a request finish, and sees the moment a
/// client gives up. A path starting with `/drip` gets its headers (a cacheable page), then one
/// body byte every `dripInterval` seconds, forever; any other path is accepted, read and never
/// answered.
/// Each connection has a thread of its own that notices when the client closes it.
public final class StallingServer: @unchecked Sendable {
    public let port: Int
    public var url: URL { URL(string: "http://127.0.0.1:\(port)/")! }
    private let listener: Int32
    private let dripInterval: Double
    private let lock = NSLock()
    private var open: Set<Int32> = []
    private var paths: [String] = []
    private var isStopped = false

    public init(dripInterval: Double = 10) throws {
        self.dripInterval = dripInterval
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw CLIError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 64) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw CLIError("bind: \(String(cString: strerror(errno)))")
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread { [self] in acceptLoop() }.start()
    }

    /// Connections a client opened and has not closed yet.
    public var openConnections: Int { lock.withLock { open.count } }

    /// The paths requested so far, in order of arrival.
    public var requestedPaths: [String] { lock.withLock { paths } }

    /// Stops accepting and closes every connection.
    public func stop() {
        // Under the lock, so that no descriptor is closed (and its number reused) meanwhile.
        lock.withLock {
            isStopped = true
            for fd in open { shutdown(fd, Int32(SHUT_RDWR)) }
        }
        shutdown(listener, Int32(SHUT_RDWR))
    }

    private func acceptLoop() {
        while true {
            let fd = accept(listener, nil, nil)
            if fd < 0 {
                if errno == EINTR { continue }
                break
            }
            let stopped = lock.withLock {
                if !isStopped { open.insert(fd) }
                return isStopped
            }
            if stopped {
                close(fd)
                break
            }
            Thread { [self] in serve(fd) }.start()
        }
        close(listener)
    }

    private func serve(_ fd: Int32) {
        defer {
            lock.withLock {
                open.remove(fd)
                close(fd)
            }
        }
        var request: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !request.containsHeadEnd {
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { return }
            request += buffer[0..<count]
        }
        let line = String(decoding: request.prefix { $0 != 13 }, as: UTF8.self).split(separator: " ")
        let path = line.count > 1 ? String(line[1]) : "/"
        lock.withLock { paths.append(path) }
        let drips = path.hasPrefix("/drip")
        if drips, !write(fd, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nCache-Control: max-age=600\r\nTransfer-Encoding: chunked\r\n\r\n") { return }
        // Waits for the client to close (EOF or an error), dripping a byte at each interval.
        let wait = Int32(drips ? dripInterval * 1000 : 500)
        while true {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, wait)
            if ready > 0 {
                let count = recv(fd, &buffer, buffer.count, 0)
                if count <= 0 { return }
            } else if ready == 0, drips {
                if !write(fd, "1\r\n \r\n") { return }
            } else if ready < 0, errno != EINTR {
                return
            }
            if lock.withLock({ isStopped }) { return }
        }
    }

    private func write(_ fd: Int32, _ text: String) -> Bool {
        send(fd, text, text.utf8.count, Int32(MSG_NOSIGNAL)) == text.utf8.count
    }
}

extension [UInt8] {
    var containsHeadEnd: Bool {
        count >= 4 && (0...(count - 4)).contains { self[$0] == 13 && self[$0 + 1] == 10 && self[$0 + 2] == 13 && self[$0 + 3] == 10 }
    }
}
