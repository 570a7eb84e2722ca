import Foundation
import Headway

// One accepted connection's descriptor: reads bounded by a deadline, writes that never raise
// SIGPIPE. Used by one connection thread only.
final class HTTPSocket {
    let fd: Int32
    // Bytes read past the current request.
    var buffer: [UInt8] = []

    init(fd: Int32, sendTimeout: Duration) {
        self.fd = fd
        var timeout = timeval(tv_sec: Int(max(1, sendTimeout.components.seconds)), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    enum ReadEnd: Error { case closed, timedOut }

    // Reads what is there (at most `limit` bytes) into `buffer`, waiting until `deadline`.
    func fill(until deadline: ContinuousClock.Instant, limit: Int = 65_536) throws(ReadEnd) {
        while true {
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero else { throw .timedOut }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let (seconds, attoseconds) = left.components
            let millis = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            let ready = poll(&poller, 1, millis)
            if ready < 0 {
                if errno == EINTR { continue }
                throw .closed
            }
            if ready == 0 { continue }
            var chunk = [UInt8](repeating: 0, count: limit)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, limit, 0) }
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            guard count > 0 else { throw .closed }
            buffer.append(contentsOf: chunk[0..<count])
            return
        }
    }

    // Whether the client hung up or shut its sending side (nothing more can come), without waiting.
    func peerClosed() -> Bool {
        let rdhup: Int16 = 0x2000 // POLLRDHUP (Linux)
        var poller = pollfd(fd: fd, events: Int16(POLLIN) | rdhup, revents: 0)
        guard poll(&poller, 1, 0) > 0 else { return false }
        return poller.revents & (rdhup | Int16(POLLHUP) | Int16(POLLERR)) != 0
    }

    // Writes all of `data`; false when the client went away or stopped reading.
    @discardableResult
    func write(_ data: Data) -> Bool {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent < 0, errno == EINTR { continue }
                guard sent > 0 else { return false }
                offset += sent
            }
            return true
        }
    }

    // After an answer to a request whose body was not read: stop writing, then drop what the
    // client still sends for a moment (so that closing does not reset the answer away), bounded.
    func linger() {
        shutdown(fd, Int32(SHUT_WR))
        let deadline = ContinuousClock.now + .seconds(1)
        var dropped = 0
        while dropped < 1 << 20 {
            buffer.removeAll(keepingCapacity: true)
            do { try fill(until: deadline) } catch { break }
            dropped += buffer.count
        }
    }
}
