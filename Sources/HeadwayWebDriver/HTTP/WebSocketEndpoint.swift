import Foundation
import NIOCore
import NIOHTTP1
import NIOWebSocket
import Synchronization

// What serves the server's WebSockets (WebDriver BiDi): the HTTP layer does the upgrade, RFC 6455
// and the limits; the endpoint sees text messages in order and answers through a sink.
package protocol WebSocketEndpoint: Sendable {
    // Whether a WebSocket may open at `path` (the request target); no is answered as HTTP.
    func accepts(path: String) async -> Bool
    // Serves one connection until `messages` ends (the client closed, or the limits did) or it
    // returns (and the connection is closed).
    func serve(path: String, messages: AsyncStream<WebSocketMessage>, sink: WebSocketSink) async
}

// The bounds of a WebSocket connection.
package struct WebSocketLimits: Sendable {
    // The largest message a client may send, whole (its fragments together): larger is closed 1009.
    package var maxMessageBytes = 64 << 20
    // Messages read and not yet answered: beyond it the connection is not read until they are...
    package var maxUnanswered = 256
    // ...nor beyond this many bytes of them.
    package var maxUnansweredBytes = 256 << 20
    // Bytes written and not yet taken by the client: beyond it the client is not reading, and
    // the connection is closed 1008.
    package var maxUnsentBytes = 256 << 20

    package init() {}
    package static let standard = WebSocketLimits()
}

// The connection's writing side, from any thread.
package final class WebSocketSink: Sendable {
    private let channel: any Channel
    private let handler: NIOLoopBound<WebSocketHandler>

    init(channel: any Channel, handler: WebSocketHandler) {
        self.channel = channel
        self.handler = NIOLoopBound(handler, eventLoop: channel.eventLoop)
    }

    // Sends `text` as one message; `answers` says it answers a message read (which lets one
    // more be read when the connection waits).
    package func send(_ text: String, answers: Bool = false) {
        let handler = handler
        channel.eventLoop.execute { handler.value.send(text, answers: answers) }
    }

    // Closes the connection with `code` (RFC 6455 7.4) and a short reason.
    package func close(_ code: WebSocketErrorCode = .normalClosure, reason: String = "") {
        let handler = handler
        channel.eventLoop.execute { handler.value.close(code, reason: reason) }
    }
}

extension WebDriverHTTPServer {
    // The upgrader for `endpoint`: a refused path goes on as an HTTP request.
    static func upgrader(_ endpoint: any WebSocketEndpoint, limits: WebSocketLimits,
                         connections: ConnectionRegistry) -> NIOWebSocketServerUpgrader {
        NIOWebSocketServerUpgrader(
            maxFrameSize: min(limits.maxMessageBytes, Int(UInt32.max)),
            automaticErrorHandling: true,
            shouldUpgrade: { channel, head in
                let promise = channel.eventLoop.makePromise(of: HTTPHeaders?.self)
                let path = head.uri
                promise.completeWithTask { await endpoint.accepts(path: path) ? HTTPHeaders() : nil }
                return promise.futureResult
            },
            upgradePipelineHandler: { channel, head in
                channel.eventLoop.makeCompletedFuture {
                    let handler = WebSocketHandler(endpoint: endpoint, path: head.uri, limits: limits)
                    try channel.pipeline.syncOperations.addHandlers([
                        ClientMaskCheck(),
                        NIOWebSocketFrameAggregator(minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 10_000,
                                                    maxAccumulatedFrameSize: limits.maxMessageBytes),
                        handler,
                    ])
                    let registry = connections
                    channel.closeFuture.whenComplete { _ in registry.remove(channel) }
                }
            })
    }
}

// RFC 6455 5.1: a server closes the connection on a frame a client did not mask.
final class ClientMaskCheck: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame

    struct Unmasked: Error {}

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard unwrapInboundIn(data).maskKey != nil else { return context.fireErrorCaught(Unmasked()) }
        context.fireChannelRead(data)
    }
}
