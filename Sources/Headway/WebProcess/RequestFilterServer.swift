import Foundation
#if canImport(Glibc)
import Glibc
#endif

// Answers the web-process extension's questions about each request with the configuration's
// request filter. It listens on an abstract Unix socket of its own; each web process connects
// once and, for each request, writes `METHOD URL PAGE\n` and waits for `A\n` (allow) or `B\n`
// (block). The filter runs on this server's own thread, never on the engine thread; the
// extension lets a request go when no answer comes within 5 s.
final class RequestFilterServer: @unchecked Sendable {
    // The socket's abstract name, for the extension.
    let address: String
    private let filter: @Sendable (FilteredRequest) -> RequestDecision
    private let listener: Int32
    // Written to wake the thread up when the server stops.
    private let wake: (read: Int32, write: Int32)
    private var thread: Thread?

    init?(filter: @escaping @Sendable (FilteredRequest) -> RequestDecision) {
        self.filter = filter
        address = "headway-filter-\(getpid())-\(UUID().uuidString.prefix(8))"
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var name = sockaddr_un()
        name.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(address.utf8)
        // An abstract name: a leading NUL, then the bytes, no terminator.
        withUnsafeMutableBytes(of: &name.sun_path) { path in
            path[0] = 0
            for (index, byte) in bytes.enumerated() { path[index + 1] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + 1 + bytes.count)
        let bound = withUnsafePointer(to: &name) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 }
        }
        var pipeEnds: [Int32] = [0, 0]
        guard bound, listen(fd, 16) == 0, pipe(&pipeEnds) == 0 else {
            close(fd)
            return nil
        }
        listener = fd
        wake = (pipeEnds[0], pipeEnds[1])
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let thread = Thread { [self] in serve() }
        thread.name = "headway-request-filter"
        self.thread = thread
        thread.start()
    }

    private let lock = NSLock()
    private var stopped = false

    // Stops answering (once; later calls do nothing): the thread ends and closes every socket.
    func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        _ = write(wake.write, "x", 1)
    }

    private func serve() {
        var clients: [Int32: Data] = [:]
        defer {
            // Under the lock, so that `stop()` never writes to a closed (or reused) descriptor.
            lock.lock()
            stopped = true
            lock.unlock()
            for fd in clients.keys { close(fd) }
            close(listener)
            close(wake.read)
            close(wake.write)
        }
        while true {
            var fds = [
                pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
                pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
            ]
            fds += clients.keys.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            guard poll(&fds, nfds_t(fds.count), -1) >= 0 || errno == EINTR else { return }
            if fds[0].revents != 0 { return }
            if fds[1].revents & Int16(POLLIN) != 0 {
                let client = accept(listener, nil, nil)
                if client >= 0 {
                    _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                    clients[client] = Data()
                }
            }
            for entry in fds.dropFirst(2) where entry.revents != 0 {
                var chunk = [UInt8](repeating: 0, count: 65536)
                let count = read(entry.fd, &chunk, chunk.count)
                guard count > 0 else {
                    close(entry.fd)
                    clients[entry.fd] = nil
                    continue
                }
                var buffer = clients[entry.fd, default: Data()] + chunk[0..<count]
                while let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[buffer.startIndex..<end], as: UTF8.self)
                    buffer = Data(buffer[buffer.index(after: end)...])
                    let answer = decide(line) == .block ? "B\n" : "A\n"
                    // MSG_NOSIGNAL: a web process gone mid-question is no SIGPIPE for the whole run.
                    _ = answer.withCString { send(entry.fd, $0, 2, Int32(MSG_NOSIGNAL)) }
                }
                // A question never needs more than a few KB: a longer line is dropped.
                clients[entry.fd] = buffer.count > 1 << 20 ? Data() : buffer
            }
        }
    }

    private func decide(_ line: String) -> RequestDecision {
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, let url = URL(string: parts[1]) else { return .allow }
        let page = parts.count > 2 ? URL(string: parts[2]) : nil
        return filter(FilteredRequest(url: url, method: parts[0], page: page))
    }
}
