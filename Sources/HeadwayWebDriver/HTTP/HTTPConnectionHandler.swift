import Foundation
import Headway
import NIOCore
import NIOHTTP1
import NIOWebSocket

// What every connection of one server shares.
struct HTTPServing: Sendable {
    let handler: WebDriverHTTPServer.Handler
    let limits: HTTPLimits
    let connections: ConnectionRegistry
    let budget: BodyBudget
}

// Serves one connection's requests one after another, on its event loop: gathers a body within
// the budget and the rate floor, runs the handler in a task of its own (never on the event loop
// or the engine thread) and writes the answer. While a command runs, the connection reads no
// further (pipelined requests wait their turn); the client hanging up cancels the command. Every
// state but a running command has a deadline: the first head, the keep-alive, a head's arrival,
// a body's rate, an answer being read, the lingering after a refusal.
final class HTTPConnectionHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private enum State {
        case idle(first: Bool)  // waiting for a request's first byte
        case head  // its head is arriving
        case body(NIOHTTP1.HTTPRequestHead, since: NIODeadline)
        case running(Task<Void, Never>)
        case answering
        case lingering(dropped: Int)  // refused: what the client still sends is dropped, then it closes
        case closed
    }

    private enum Event {
        case part(HTTPServerRequestPart)
        case headBegan
        case refused(HTTPFailure)
    }

    private let serving: HTTPServing
    private var state = State.idle(first: true)
    private var started = false
    // The body so far (outside `state`, so that appending to it never copies it).
    private var body = ByteBuffer()
    // Body bytes reserved in the budget, released once answered.
    private var held = 0
    // What arrived while a command ran or its answer was written, handled in order afterwards.
    private var backlog: [Event] = []
    private var readDeferred = false
    private var timer: Scheduled<Void>?
    private var timerGeneration = 0

    init(serving: HTTPServing) {
        self.serving = serving
    }

    private var isBusy: Bool {
        switch state {
        case .running, .answering: true
        default: false
        }
    }

    private var limits: HTTPLimits { serving.limits }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    // Taken out by a WebSocket upgrade: the connection is the WebSocket's now (it leaves the
    // registry when it closes).
    func handlerRemoved(context: ChannelHandlerContext) {
        if case .running(let task) = state { task.cancel() }
        state = .closed
        cancelTimer()
        releaseBody()
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    private func start(_ context: ChannelHandlerContext) {
        guard !started else { return }
        started = true
        guard serving.connections.admit(context.channel) else {
            state = .closed
            context.close(promise: nil)
            return
        }
        // The first head must be complete within headerTimeout of connecting.
        schedule(in: limits.headerTimeout, context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if case .running(let task) = state { task.cancel() }
        state = .closed
        cancelTimer()
        releaseBody()
        serving.connections.remove(context.channel)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        accept(.part(unwrapInboundIn(data)), context)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is HTTPRequestFramer.HeadBegan else { return context.fireUserInboundEventTriggered(event) }
        accept(.headBegan, context)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        switch error {
        case let failure as HTTPFailure:
            accept(.refused(failure), context)
        case is NIOWebSocketUpgradeError:
            // A WebSocket the endpoint refused: NIO passes the request on as HTTP.
            break
        case ByteToMessageDecoderError.dataReceivedInErrorState(_, let bytes):
            // After a refused head: dropped while lingering.
            if case .lingering(let dropped) = state { drop(dropped + bytes.readableBytes, context) }
        default:
            // The socket failed (a reset): the connection is gone.
            context.close(promise: nil)
        }
    }

    // Reads wait while a command runs or its answer is written.
    func read(context: ChannelHandlerContext) {
        if isBusy { readDeferred = true } else { context.read() }
    }

    private func accept(_ event: Event, _ context: ChannelHandlerContext) {
        if isBusy { backlog.append(event) } else { handle(event, context) }
    }

    private func handle(_ event: Event, _ context: ChannelHandlerContext) {
        switch (state, event) {
        case (.lingering(let dropped), .part(.body(let chunk))):
            drop(dropped + chunk.readableBytes, context)
        case (.lingering, _), (.closed, _):
            break
        case (_, .refused(let failure)):
            refuse(failure, context)
        case (.idle(let first), .headBegan):
            state = .head
            serving.connections.setIdle(context.channel, false)
            // A first head keeps its deadline from the connection's start.
            if !first { schedule(in: limits.headerTimeout, context) }
        case (.idle, .part(.head(let head))), (.head, .part(.head(let head))):
            serving.connections.setIdle(context.channel, false)
            if head.headers.first(name: "Expect")?.lowercased() == "100-continue",
               Int(head.headers.first(name: "Content-Length") ?? "0") ?? 0 > 0 {
                context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse.continue)), promise: nil)
            }
            state = .body(head, since: .now())
            schedule(in: limits.bodyGrace, context)
        case (.body, .part(.body(var chunk))):
            guard serving.budget.reserve(chunk.readableBytes) else {
                let failure = HTTPFailure(503, "the server holds too many large request bodies now: try again")
                return refuse(failure, context)
            }
            held += chunk.readableBytes
            body.writeBuffer(&chunk)
        case (.body(let head, _), .part(.end)):
            run(head, context)
        default:
            break
        }
    }

    private func expire(_ context: ChannelHandlerContext) {
        switch state {
        case .idle, .answering, .lingering:
            // Nothing asked, an answer nobody reads, or the lingering is over.
            context.close(promise: nil)
        case .head:
            refuse(HTTPFailure(408, "the request's headers did not arrive in time"), context)
        case .body(_, let since):
            let floor = limits.minBodyBytesPerSecond
            let due = since + TimeAmount(limits.bodyGrace)
                + .nanoseconds(Int64(Double(body.readableBytes) / Double(max(1, floor)) * 1e9))
            if NIODeadline.now() < due { return schedule(at: due, context) }
            refuse(HTTPFailure(408, "the body arrived slower than \(floor) bytes a second"), context)
        case .running, .closed:
            break
        }
    }

    // Runs the handler in a task; its answer comes back to the event loop.
    private func run(_ head: NIOHTTP1.HTTPRequestHead, _ context: ChannelHandlerContext) {
        cancelTimer()
        let handler = serving.handler
        let (method, path, data) = (head.method.rawValue, head.uri, Data(body.readableBytesView))
        body = ByteBuffer()
        let keepAlive = head.isKeepAlive
        let loop = context.eventLoop
        let bound = NIOLoopBound((self, context), eventLoop: loop)
        state = .running(Task {
            let answer = await handler(method, path, data)
            loop.execute {
                let (connection, context) = bound.value
                connection.answer(answer, keepAlive: keepAlive, context)
            }
        })
    }

    private func answer(_ answer: (status: Int, body: JSONValue), keepAlive: Bool, _ context: ChannelHandlerContext) {
        guard case .running = state else { return }
        state = .answering
        let (written, bytes) = write(answer.status, answer.body, keepAlive: keepAlive, context)
        // Read within sendTimeout, and a large answer at least at the body floor's rate.
        schedule(in: limits.sendTimeout + .seconds(Double(bytes) / Double(max(1, limits.minBodyBytesPerSecond))),
                 context)
        written.assumeIsolated().whenComplete { [self] result in
            guard case .answering = state else { return }
            cancelTimer()
            releaseBody()
            guard case .success = result, keepAlive else {
                state = .closed
                return context.close(promise: nil)
            }
            state = .idle(first: false)
            serving.connections.setIdle(context.channel, true)
            schedule(in: limits.keepAliveTimeout, context)
            while !isBusy, !backlog.isEmpty { handle(backlog.removeFirst(), context) }
            if !isBusy, readDeferred {
                readDeferred = false
                context.read()
            }
        }
    }

    // Answers a request the HTTP layer refuses and ends the connection: it stops writing, then
    // drops what the client still sends (so that closing does not reset the answer away), at
    // most a second and a MiB.
    private func refuse(_ failure: HTTPFailure, _ context: ChannelHandlerContext) {
        releaseBody()
        state = .lingering(dropped: 0)
        serving.connections.setIdle(context.channel, false)
        schedule(in: .seconds(1), context)
        write(failure.status, failure.body, keepAlive: false, context).written.assumeIsolated().whenSuccess {
            context.close(mode: .output, promise: nil)
        }
    }

    private func drop(_ dropped: Int, _ context: ChannelHandlerContext) {
        state = .lingering(dropped: dropped)
        if dropped > 1 << 20 { context.close(promise: nil) }
    }

    // Writes an answer: when it was written, and its body's size.
    private func write(_ status: Int, _ json: JSONValue, keepAlive: Bool,
                       _ context: ChannelHandlerContext) -> (written: EventLoopFuture<Void>, bytes: Int) {
        let (head, bytes) = HTTPResponse.parts(status: status, body: json, keepAlive: keepAlive)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(bytes))), promise: nil)
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
        return (written.futureResult, bytes.readableBytes)
    }

    private func releaseBody() {
        serving.budget.release(held)
        held = 0
        body = ByteBuffer()
    }

    private func schedule(in delay: Duration, _ context: ChannelHandlerContext) {
        schedule(at: .now() + TimeAmount(delay), context)
    }

    // One deadline at a time: a new one replaces the last (a stale one that already started does nothing).
    private func schedule(at deadline: NIODeadline, _ context: ChannelHandlerContext) {
        cancelTimer()
        let generation = timerGeneration
        timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            guard generation == timerGeneration else { return }
            timer = nil
            expire(context)
        }
    }

    private func cancelTimer() {
        timerGeneration += 1
        timer?.cancel()
        timer = nil
    }
}
