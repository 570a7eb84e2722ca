import Foundation

// Reads lines from a file descriptor on a thread of its own, so the engine never blocks on it,
// into a small buffer: when `capacity` lines wait unread, the thread stops reading, and so a
// writer that never stops (`yes URL | headway load --urls -`) is held back by the pipe.
final class LineReader: @unchecked Sendable {
    // One line, a line too long to keep (only its start is kept), or the read error that ended
    // the input.
    enum Line: Sendable {
        case text(String)
        case tooLong(prefix: String)
        case unreadable(errno: Int32)
    }

    // Lines longer than this are not URLs anyone loads; they are reported, not buffered.
    static let longestLine = 1 << 20

    private let fd: Int32
    private let capacity: Int
    private let condition = NSCondition()
    private var buffered: [Line] = []
    private var waiting: [CheckedContinuation<Line?, Never>] = []
    private var ended = false

    // Starts reading `fd` (which it closes at the end, unless it is stdin).
    init(fd: Int32, capacity: Int = 16) {
        self.fd = fd
        self.capacity = capacity
        let thread = Thread { [self] in readLoop() }
        thread.name = "headway-url-list"
        thread.start()
    }

    // The next line, waiting for it without blocking the caller's thread; nil at the end.
    func next() async -> Line? {
        await withCheckedContinuation { continuation in
            condition.lock()
            if !buffered.isEmpty {
                let line = buffered.removeFirst()
                condition.signal()
                condition.unlock()
                continuation.resume(returning: line)
            } else if ended {
                condition.unlock()
                continuation.resume(returning: nil)
            } else {
                waiting.append(continuation)
                condition.unlock()
            }
        }
    }

    private func readLoop() {
        var pending: [UInt8] = []
        var discarding = false
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        var error: Int32?
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { error = errno }
            guard count > 0 else { break }
            var start = 0
            for index in 0..<count where chunk[index] == UInt8(ascii: "\n") {
                if !discarding { pending += chunk[start..<index] }
                deliver(pending, tooLong: discarding)
                pending.removeAll(keepingCapacity: pending.count <= 4096)
                discarding = false
                start = index + 1
            }
            if !discarding { pending += chunk[start..<count] }
            if pending.count > Self.longestLine {
                // Keep only the start until the line ends.
                pending.removeSubrange(200...)
                discarding = true
            }
        }
        if !pending.isEmpty || discarding { deliver(pending, tooLong: discarding) }
        if let error { deliver(.unreadable(errno: error)) }
        if fd != 0 { close(fd) }
        finish()
    }

    private func deliver(_ bytes: [UInt8], tooLong: Bool) {
        let text = String(decoding: bytes.last == UInt8(ascii: "\r") ? bytes.dropLast() : bytes[...], as: UTF8.self)
        deliver(tooLong ? .tooLong(prefix: text) : .text(text))
    }

    private func deliver(_ line: Line) {
        condition.lock()
        if !waiting.isEmpty {
            let continuation = waiting.removeFirst()
            condition.unlock()
            continuation.resume(returning: line)
            return
        }
        buffered.append(line)
        while buffered.count >= capacity { condition.wait() }
        condition.unlock()
    }

    private func finish() {
        condition.lock()
        ended = true
        let waiters = waiting
        waiting.removeAll()
        condition.unlock()
        for continuation in waiters { continuation.resume(returning: nil) }
    }
}
