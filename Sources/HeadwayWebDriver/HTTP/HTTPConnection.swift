import Foundation
import Headway

// The body bytes all connections hold, within `HTTPLimits.maxBufferedBodyBytes`.
final class BodyBudget: @unchecked Sendable {
    private let lock = NSLock()
    private let limit: Int
    private var held = 0

    init(limit: Int) { self.limit = limit }

    func reserve(_ bytes: Int) -> Bool {
        lock.withLock {
            guard bytes == 0 || held + bytes <= limit else { return false }
            held += bytes
            return true
        }
    }

    func release(_ bytes: Int) { lock.withLock { held -= bytes } }

    var bytesHeld: Int { lock.withLock { held } }
}

// Serves one connection's requests one after another, on the connection's own thread: reads a
// request within the limits, hands it to the handler and writes the answer. A client that goes
// away meanwhile (its socket hangs up) has its command cancelled.
struct HTTPConnection {
    let socket: HTTPSocket
    let check: HostCheck
    let handler: WebDriverHTTPServer.Handler
    let limits: HTTPLimits
    let budget: BodyBudget

    enum End { case close, linger }

    func serve() -> End {
        while true {
            let head: HTTPRequestHead
            switch readHead() {
            case .head(let parsed): head = parsed
            case .gone: return .close
            case .failed(let failure): return refuse(failure)
            }
            if let failure = check.refusal(for: head) { return refuse(failure) }
            let length: Int
            do { length = try head.contentLength() } catch { return refuse(error) }
            guard length <= limits.maxBodyBytes else {
                return refuse(HTTPFailure(413, "the body has \(length) bytes, more than the "
                    + "\(limits.maxBodyBytes) bytes this server accepts"))
            }
            guard budget.reserve(length) else {
                return refuse(HTTPFailure(503, "the server holds too many large request bodies now: try again"))
            }
            defer { budget.release(length) }
            if let expect = head.header("Expect") {
                guard expect.lowercased() == "100-continue" else {
                    return refuse(HTTPFailure(417, "only \"Expect: 100-continue\" is understood"))
                }
                if socket.buffer.count < length, !socket.write(HTTPResponse.continueLine) { return .close }
            }
            while socket.buffer.count < length {
                do {
                    try socket.fill(until: .now + limits.bodyIdleTimeout)
                } catch .timedOut {
                    return refuse(HTTPFailure(408, "the body stopped arriving"))
                } catch {
                    return .close
                }
            }
            let body = Data(socket.buffer[0..<length])
            socket.buffer.removeFirst(length)
            let answer = Self.run(handler, method: head.method, path: head.target, body: body,
                                  clientGone: socket.peerClosed)
            let keepAlive = head.keepAlive
            guard socket.write(HTTPResponse.bytes(status: answer.status, body: answer.body, keepAlive: keepAlive)),
                  keepAlive else { return .close }
        }
    }

    private enum HeadRead { case head(HTTPRequestHead), gone, failed(HTTPFailure) }

    private func readHead() -> HeadRead {
        if socket.buffer.isEmpty {
            do { try socket.fill(until: .now + limits.keepAliveTimeout) } catch { return .gone }
        }
        let deadline = ContinuousClock.now + limits.headerTimeout
        var scanned = 0
        while true {
            // Empty lines before a request line are skipped (RFC 9112 2.2).
            let blanks = Self.leadingBlankBytes(socket.buffer)
            if blanks > 0 {
                socket.buffer.removeFirst(blanks)
                scanned = 0
            }
            if let (headEnd, bodyStart) = Self.endOfHead(in: socket.buffer, from: scanned) {
                let bytes = socket.buffer[0..<headEnd]
                defer { socket.buffer.removeFirst(bodyStart) }
                do { return .head(try HTTPRequestHead.parse(bytes)) } catch { return .failed(error) }
            }
            guard socket.buffer.count <= limits.maxHeaderBytes else {
                return .failed(HTTPFailure(431, "the request line and headers are longer than "
                    + "\(limits.maxHeaderBytes) bytes"))
            }
            scanned = max(0, socket.buffer.count - 3)
            do {
                try socket.fill(until: deadline)
            } catch .timedOut {
                return .failed(HTTPFailure(408, "the request's headers did not arrive in time"))
            } catch {
                return .gone
            }
        }
    }

    // How many CR and LF bytes open `buffer`: the empty lines a client may send before a request.
    static func leadingBlankBytes(_ buffer: [UInt8]) -> Int {
        buffer.prefix { $0 == 13 || $0 == 10 }.count
    }

    // Where the head ends (its blank line: CRLF CRLF, or bare LFs) and the body begins, in a buffer
    // whose leading empty lines were removed (`leadingBlankBytes`).
    static func endOfHead(in buffer: [UInt8], from start: Int) -> (Int, Int)? {
        var index = start
        while index < buffer.count {
            if buffer[index] == 10 {
                let lineStart = index + 1
                if lineStart < buffer.count, buffer[lineStart] == 10 { return (index, lineStart + 1) }
                if lineStart + 1 < buffer.count, buffer[lineStart] == 13, buffer[lineStart + 1] == 10 {
                    return (index, lineStart + 2)
                }
            }
            index += 1
        }
        return nil
    }

    // Answers a request the HTTP layer refuses, then ends the connection.
    private func refuse(_ failure: HTTPFailure) -> End {
        socket.write(HTTPResponse.bytes(status: failure.status, body: failure.body, keepAlive: false))
        return .linger
    }

    // Runs the async handler from this (non-pool) thread and waits for its answer; cancels it
    // when `clientGone` says the client hung up meanwhile (checked every 100 ms).
    static func run(_ handler: @escaping WebDriverHTTPServer.Handler, method: String, path: String,
                    body: Data, clientGone: () -> Bool = { false }) -> (status: Int, body: JSONValue) {
        final class Box: @unchecked Sendable {
            var answer: (status: Int, body: JSONValue) = (500, .null)
            let done = DispatchSemaphore(value: 0)
        }
        let box = Box()
        let task = Task {
            box.answer = await handler(method, path, body)
            box.done.signal()
        }
        while box.done.wait(timeout: .now() + .milliseconds(100)) == .timedOut {
            guard clientGone() else { continue }
            task.cancel()
            box.done.wait()
            break
        }
        return box.answer
    }
}
