import Foundation
import NIOCore
import NIOWebSocket

// A message as a client sent it.
package enum WebSocketMessage: Sendable {
    case text(String)
    // Binary messages carry nothing WebDriver BiDi knows.
    case binary
}

// One upgraded connection, on its event loop (after NIO's frame decoder, the mask check and the
// fragment aggregator): text messages go to the endpoint in order, pings are answered, a close is
// echoed (RFC 6455 5.5). While `maxUnanswered` messages wait for their answer, later ones wait
// here (at most what one socket read held) and the socket is not read; a client that leaves
// `maxUnsentBytes` unread is closed 1008.
final class WebSocketHandler: ChannelDuplexHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let endpoint: any WebSocketEndpoint
    private let path: String
    private let limits: WebSocketLimits
    private var messages: AsyncStream<WebSocketMessage>.Continuation?
    private var context: ChannelHandlerContext?
    private var unanswered = 0
    // Messages read while `maxUnanswered` waited, in order.
    private var waiting: [(message: WebSocketMessage, bytes: Int)] = []
    // The sizes of the messages handed on and not yet answered, oldest first (an answer is taken
    // to answer the oldest), and of those and the waiting ones together.
    private var sizes: [Int] = []
    private var heldBytes = 0
    private var unsent = 0
    private var readDeferred = false
    private var closing = false

    init(endpoint: any WebSocketEndpoint, path: String, limits: WebSocketLimits) {
        self.endpoint = endpoint
        self.path = path
        self.limits = limits
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        let (stream, continuation) = AsyncStream.makeStream(of: WebSocketMessage.self)
        messages = continuation
        let sink = WebSocketSink(channel: context.channel, handler: self)
        let (endpoint, path) = (endpoint, path)
        Task {
            await endpoint.serve(path: path, messages: stream, sink: sink)
            sink.close()
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        finish()
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        // Closing: what the client still sends is dropped; its close frame ends the connection.
        guard !closing else {
            if frame.opcode == .connectionClose { context.close(promise: nil) }
            return
        }
        switch frame.opcode {
        case .text, .binary:
            var message = WebSocketMessage.binary
            if frame.opcode == .text {
                guard let text = String(validating: frame.unmaskedData.readableBytesView, as: UTF8.self) else {
                    return close(.dataInconsistentWithMessage, reason: "a text message must be UTF-8")
                }
                message = .text(text)
            }
            waiting.append((message, frame.length))
            heldBytes += frame.length
            deliver()
        case .ping:
            write(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData))
        case .pong:
            break
        case .connectionClose:
            // Echo the client's code (one a client may send: RFC 6455 7.4), then close.
            var data = frame.unmaskedData
            let number = data.readInteger(as: UInt16.self)
            let reason = data.readableBytes > 0 ? String(validating: data.readableBytesView, as: UTF8.self) : ""
            guard let number, reason != nil else {
                let empty = number == nil && frame.unmaskedData.readableBytes == 0
                return close(empty ? .normalClosure : .protocolError, reason: "", clientClosed: true)
            }
            let allowed = (1000...1003).contains(number) || (1007...1014).contains(number)
                || (3000...4999).contains(number)
            let code = allowed ? WebSocketErrorCode(codeNumber: Int(number)) : .protocolError
            close(code, reason: "", clientClosed: true)
        default:
            close(.protocolError, reason: "unknown opcode")
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        switch error {
        case is ClientMaskCheck.Unmasked:
            close(.protocolError, reason: "a client's frames must be masked")
        case let error as NIOWebSocketFrameAggregator.Error:
            close(.messageTooLarge, reason: "message refused: \(error)")
        default:
            context.close(promise: nil)
        }
    }

    func read(context: ChannelHandlerContext) {
        if isFull { readDeferred = true } else { context.read() }
    }

    private var isFull: Bool {
        unanswered + waiting.count >= limits.maxUnanswered || heldBytes >= limits.maxUnansweredBytes
    }

    // Hands the endpoint what waits, while fewer than `maxUnanswered` await their answer; reads on
    // once that leaves room.
    private func deliver() {
        while unanswered < limits.maxUnanswered, !waiting.isEmpty {
            unanswered += 1
            let (message, bytes) = waiting.removeFirst()
            sizes.append(bytes)
            messages?.yield(message)
        }
        if readDeferred, !isFull, let context {
            readDeferred = false
            context.read()
        }
    }

    func send(_ text: String, answers: Bool) {
        if answers {
            unanswered -= 1
            if !sizes.isEmpty { heldBytes -= sizes.removeFirst() }
            deliver()
        }
        guard !closing, let context else { return }
        write(WebSocketFrame(fin: true, opcode: .text, data: context.channel.allocator.buffer(string: text)))
    }

    // Sends a close frame with `code`, then closes: at once when the client closed first, else
    // after its own close frame (or 5 s), so that answers it has not read are not reset away.
    func close(_ code: WebSocketErrorCode, reason: String, clientClosed: Bool = false) {
        guard !closing, let context else { return }
        closing = true
        finish()
        var data = context.channel.allocator.buffer(capacity: 2 + reason.utf8.count)
        data.write(webSocketErrorCode: code)
        data.writeString(String(reason.utf8.prefix(120)) ?? "")
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: data)),
                              promise: written)
        let channel = context.channel
        written.futureResult.whenComplete { _ in
            if clientClosed { channel.close(promise: nil) } else { channel.close(mode: .output, promise: nil) }
        }
        // A client that never takes the close frame is not waited for long.
        channel.eventLoop.scheduleTask(in: .seconds(5)) { channel.close(promise: nil) }
    }

    private func write(_ frame: WebSocketFrame) {
        guard let context else { return }
        let bytes = frame.length
        unsent += bytes
        // Answers, events and pongs alike: a client that takes none of them is cut off.
        guard unsent <= limits.maxUnsentBytes else {
            return close(.policyViolation, reason: "the client does not read its messages")
        }
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(frame), promise: written)
        written.futureResult.assumeIsolated().whenComplete { [self] _ in unsent -= bytes }
    }

    private func finish() {
        messages?.finish()
        messages = nil
        waiting.removeAll()
        sizes.removeAll()
        heldBytes = 0
    }
}
