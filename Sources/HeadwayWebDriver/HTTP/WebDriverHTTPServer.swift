import Foundation
import Headway
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import Synchronization

// The WebDriver server's HTTP/1.1 side, on SwiftNIO: every connection lives on the event loops of
// NIO's shared group (a thread per core, however many connections), and each command runs in a
// task of its own, awaiting the handler (`WebDriverService.handle`), never on the engine thread.
//
// A connection's pipeline: bytes → `HTTPRequestFramer` (requests as NIOHTTP1's parts, or a
// refusal) → `HTTPResponseEncoder` (answers to bytes) → `HTTPConnectionHandler` (limits, deadlines,
// the command). With a WebSocket endpoint (WebDriver BiDi), NIO's `HTTPServerUpgradeHandler` sits
// before the last: a first request that asks for a WebSocket the endpoint accepts replaces the
// three with NIO's frame codec and `WebSocketHandler`; any other goes on as HTTP.
package final class WebDriverHTTPServer: Sendable {
    package typealias Handler = @Sendable (_ method: String, _ path: String, _ body: Data) async
        -> (status: Int, body: JSONValue)

    package let host: String
    // The port it listens on: the one picked when asked for 0.
    package let port: Int
    private let listener: any Channel
    private let serving: HTTPServing
    private let stopped = Mutex(false)

    // Listens on `host`:`port` and starts accepting. Throws `.serverFailed` when it cannot (the
    // port is in use or not permitted) and `.invalidArgument` for a host that is no address.
    package init(host: String = "127.0.0.1", port: Int = 0, limits: HTTPLimits = .standard,
                 webSocket: (any WebSocketEndpoint)? = nil, webSocketLimits: WebSocketLimits = .standard,
                 handler: @escaping Handler) throws {
        guard (0...65535).contains(port) else { throw HeadwayError(.invalidArgument, "the port must be 0-65535") }
        self.host = host
        let serving = HTTPServing(handler: handler, limits: limits,
                                  connections: ConnectionRegistry(limit: limits.maxConnections),
                                  budget: BodyBudget(limit: limits.maxBufferedBodyBytes))
        self.serving = serving
        let (fd, port) = try ListeningSocket.open(host: host, port: port)
        self.port = port
        let check = HostCheck(boundHost: host, port: port)
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                ListeningSocket.markConnections(port: port)
                return channel.eventLoop.makeCompletedFuture {
                    let framer = ByteToMessageHandler(HTTPRequestFramer(limits: limits, check: check))
                    let encoder = HTTPResponseEncoder()
                    let connection = HTTPConnectionHandler(serving: serving)
                    var handlers: [any ChannelHandler] = [framer, encoder, connection]
                    if let webSocket {
                        let upgrader = Self.upgrader(webSocket, limits: webSocketLimits,
                                                     connections: serving.connections)
                        handlers.insert(HTTPServerUpgradeHandler(upgraders: [upgrader], httpEncoder: encoder,
                                                                 extraHTTPHandlers: [framer, connection],
                                                                 upgradeCompletionHandler: { _ in }), at: 2)
                    }
                    try channel.pipeline.syncOperations.addHandlers(handlers)
                }
            }
        do {
            listener = try bootstrap.withBoundSocket(fd).wait()
        } catch {
            // NIO owns the descriptor once it took it: left as it is.
            throw HeadwayError(.serverFailed, "could not listen on \(host):\(port): \(error)")
        }
    }

    // Stops accepting and closes every connection: the commands running are cancelled, their
    // answers dropped. Safe to call more than once.
    package func stop() {
        guard stopped.withLock({ stopped in defer { stopped = true }; return !stopped }) else { return }
        try? listener.close().wait()
        for channel in serving.connections.closeAll() { try? channel.close().wait() }
    }

    // The body bytes held now by requests being read or run.
    package var bodyBytesHeld: Int { serving.budget.bytesHeld }

    // The connections open now.
    package var openConnections: Int { serving.connections.count }
}
