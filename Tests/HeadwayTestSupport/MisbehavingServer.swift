import Foundation

/// A raw-socket HTTP server on 127.0.0.1 that misbehaves on purpose, one way per path:
///
/// - `/silent`: reads the request and never answers;
/// - `/drip…`: a cacheable page's headers, then one body byte every `dripInterval` seconds, forever;
/// - `/slow-headers`: the status line and headers one byte every 200 ms;
/// - `/cut-headers`: half a header, then closes;
/// - `/garbage`: a response that is not HTTP;
/// - `/short-body`: `Content-Length: 100000`, 20 bytes, then closes;
/// - `/bad-chunks`: a chunked body with a chunk size that is no number;
/// - `/huge-header`: a 1 MB header line;
/// - `/loop`: redirects to itself;
/// - `/to-file`: redirects to `file:///etc/passwd`;
/// - `/binary`: `text/html` made of control bytes and NULs;
/// - `/empty`: 200 with an empty body;
/// - anything else: a small page, or silence when `othersAreSilent`.
///
/// Each connection has a thread of its own that notices when the client closes it.
public final class MisbehavingServer: @unchecked Sendable {
    public let port: Int
    public var url: URL { URL(string: "http://127.0.0.1:\(port)/")! }
    private let listener: Int32
    private let dripInterval: Double
    private let othersAreSilent: Bool
    private let lock = NSLock()
    private var open: Set<Int32> = []
    private var paths: [String] = []
    private var isStopped = false

    /// Connections a client opened and has not closed yet.
    public var openConnections: Int { lock.withLock { open.count } }

    /// The paths requested so far, in order of arrival.
    public var requestedPaths: [String] { lock.withLock { paths } }

    public init(dripInterval: Double = 1, othersAreSilent: Bool = false) throws {
        self.dripInterval = dripInterval
        self.othersAreSilent = othersAreSilent
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

    /// Stops accepting and closes every connection.
    public func stop() {
        lock.withLock {
            isStopped = true
            for fd in open { shutdown(fd, Int32(SHUT_RDWR)) }
        }
        shutdown(listener, Int32(SHUT_RDWR))
    }

    private var stopped: Bool { lock.withLock { isStopped } }

    private func acceptLoop() {
        while true {
            let fd = accept(listener, nil, nil)
            if fd < 0 {
                if errno == EINTR { continue }
                break
            }
            let stop = lock.withLock {
                if !isStopped { open.insert(fd) }
                return isStopped
            }
            if stop {
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
        let path = line.count > 1 ? String(line[1]).split(separator: "?").first.map(String.init) ?? "/" : "/"
        lock.withLock { paths.append(path) }
        let page = "<!doctype html><title>Plain</title><p>plain"
        switch path {
        case _ where path.hasPrefix("/drip"):
            let head = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nCache-Control: max-age=600\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n"
            guard send(fd, head) else { return }
            while !stopped, !closedWithin(fd, seconds: dripInterval) {
                guard send(fd, "1\r\n \r\n") else { return }
            }
        case "/silent":
            waitForClose(fd)
        case "/slow-headers":
            for byte in "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 2\r\n\r\nok".utf8 {
                guard !stopped, send(fd, String(UnicodeScalar(byte))) else { return }
                if closedWithin(fd, seconds: 0.2) { return }
            }
        case "/cut-headers":
            _ = send(fd, "HTTP/1.1 200 OK\r\nContent-Ty")
        case "/garbage":
            _ = send(fd, "SPDY? NO. \u{7}\u{1B}[31m not http at all\r\n\r\n")
        case "/short-body":
            _ = send(
                fd,
                "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100000\r\n\r\n<title>Short</title>"
            )
        case "/bad-chunks":
            _ = send(fd, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "zz\r\n<title>x</title>\r\n0\r\n\r\n")
        case "/huge-header":
            _ = send(
                fd,
                "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX-Huge: " + String(repeating: "a", count: 1 << 20)
                    + "\r\nContent-Length: \(page.utf8.count)\r\n\r\n" + page
            )
        case "/loop":
            _ = send(fd, "HTTP/1.1 302 Found\r\nLocation: /loop\r\nContent-Length: 0\r\n\r\n")
        case "/to-file":
            _ = send(fd, "HTTP/1.1 302 Found\r\nLocation: file:///etc/passwd\r\nContent-Length: 0\r\n\r\n")
        case "/binary":
            let body = (0..<4096).map { Character(UnicodeScalar(UInt8($0 % 32))) }
            _ = send(
                fd,
                "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 4096\r\nConnection: close\r\n\r\n"
                    + String(body)
            )
        case "/empty":
            _ = send(fd, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        case _ where othersAreSilent:
            waitForClose(fd)
        default:
            _ = send(fd, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: \(page.utf8.count)\r\n"
                + "Connection: close\r\n\r\n" + page)
        }
    }

    /// Waits until the client closes the connection or the server stops.
    private func waitForClose(_ fd: Int32) {
        while !stopped, !closedWithin(fd, seconds: 0.5) {}
    }

    /// Whether the client closed the connection within `seconds` (what it sends meanwhile is
    /// read and dropped).
    private func closedWithin(_ fd: Int32, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(max(0, deadline.timeIntervalSinceNow) * 1000))
            if ready == 0 { return false }
            if ready < 0 { if errno == EINTR { continue } else { return true } }
            if recv(fd, &buffer, buffer.count, 0) <= 0 { return true }
        }
    }

    private func send(_ fd: Int32, _ text: String) -> Bool {
        var bytes = Array(text.utf8)
        while !bytes.isEmpty {
            let sent = Foundation.send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL))
            if sent <= 0 { return false }
            bytes.removeFirst(sent)
        }
        return true
    }
}

extension [UInt8] {
    /// Whether these bytes hold a whole request head (up to the blank line).
    var containsHeadEnd: Bool {
        count >= 4
            && (0...(count - 4)).contains {
                self[$0] == 13 && self[$0 + 1] == 10 && self[$0 + 2] == 13 && self[$0 + 3] == 10
            }
    }
}
