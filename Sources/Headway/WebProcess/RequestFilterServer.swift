import Foundation
#if canImport(Glibc)
import Glibc
#endif

// Answers the web-process extension's questions about each request: with the configuration's
// request filter, then with the page's interceptor. It listens on an abstract Unix socket of its
// own; each web process connects once and, for each request, writes a `ExtensionQuestion` line
// and waits for an `ExtensionAnswer`. The filter runs on this server's own thread, never on the
// engine thread; a request held for an interceptor is answered "W" (wait) at once and its
// decision later, when `hold` calls back. The extension lets a request go when no answer comes
// within 5 s (70 s once held). A web process asks one question at a time: its main thread waits.
final class RequestFilterServer: @unchecked Sendable {
    // The socket's abstract name, for the extension.
    let address: String
    private let filter: (@Sendable (FilteredRequest) -> RequestDecision)?
    // Whether requests may be held now, read on this server's thread.
    private let holding: (@Sendable () -> Bool)?
    // Hands a held request to the engine; the reply may come from any thread, once.
    private let hold: (@Sendable (ExtensionQuestion, @escaping @Sendable (ExtensionAnswer) -> Void) -> Void)?
    // Answers to held requests, waiting to be written by this server's thread.
    private var outbox: [(fd: Int32, generation: Int, answer: ExtensionAnswer)] = []
    // Each connection's number, so that an answer never reaches a later connection on a reused fd.
    private var generations: [Int32: Int] = [:]
    private var nextGeneration = 0
    private let listener: Int32
    // Written to wake the thread up when the server stops.
    private let wake: (read: Int32, write: Int32)
    private var thread: Thread?

    init?(
        filter: (@Sendable (FilteredRequest) -> RequestDecision)?,
        holding: (@Sendable () -> Bool)? = nil,
        hold: (@Sendable (ExtensionQuestion, @escaping @Sendable (ExtensionAnswer) -> Void) -> Void)? = nil
    ) {
        self.filter = filter
        self.holding = holding
        self.hold = hold
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

    // Queues the answer to a held request for the thread to write.
    private func post(_ answer: ExtensionAnswer, to fd: Int32, generation: Int) {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        outbox.append((fd, generation, answer))
        _ = write(wake.write, "a", 1)
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
            if fds[0].revents != 0 {
                var byte: UInt8 = 0
                _ = read(wake.read, &byte, 1)
                lock.lock()
                let (isStopped, answers) = (stopped, outbox)
                outbox = []
                lock.unlock()
                if isStopped { return }
                for (fd, generation, answer) in answers where clients[fd] != nil && generations[fd] == generation {
                    send(answer, to: fd)
                }
            }
            if fds[1].revents & Int16(POLLIN) != 0 {
                let client = accept(listener, nil, nil)
                if client >= 0 {
                    _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                    clients[client] = Data()
                    nextGeneration += 1
                    generations[client] = nextGeneration
                }
            }
            for entry in fds.dropFirst(2) where entry.revents != 0 {
                var chunk = [UInt8](repeating: 0, count: 65536)
                let count = read(entry.fd, &chunk, chunk.count)
                guard count > 0 else {
                    close(entry.fd)
                    clients[entry.fd] = nil
                    generations[entry.fd] = nil
                    continue
                }
                var buffer = clients[entry.fd, default: Data()] + chunk[0..<count]
                while let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[buffer.startIndex..<end], as: UTF8.self)
                    buffer = Data(buffer[buffer.index(after: end)...])
                    answer(line, on: entry.fd)
                }
                // A question is rarely over a few KB (its headers): a line over 1 MB is dropped.
                clients[entry.fd] = buffer.count > 1 << 20 ? Data() : buffer
            }
        }
    }

    private func send(_ answer: ExtensionAnswer, to fd: Int32) {
        let bytes = Array(answer.line.utf8)
        // MSG_NOSIGNAL: a web process gone mid-question is no SIGPIPE for the whole run.
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    private func answer(_ line: String, on fd: Int32) {
        guard let question = ExtensionQuestion(line) else { return send(.allow, to: fd) }
        if let filter, filter(FilteredRequest(url: question.url, method: question.method, page: question.page))
            == .block {
            return send(.block, to: fd)
        }
        guard let hold, holding?() == true else { return send(.allow, to: fd) }
        send(.wait, to: fd)
        let generation = generations[fd] ?? 0
        hold(question) { [weak self] answer in self?.post(answer, to: fd, generation: generation) }
    }
}
