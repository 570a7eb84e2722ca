import Foundation
import Headway

// The WebSocket endpoint of `headway webdriver`: `/session/{id}` joins a classic session that
// asked for `webSocketUrl`; `/session` starts with none, for `session.new` (BiDi only). Commands
// run at once, each in a task of its own (a session's commands take turns in its queue) and are
// answered as they end; the connection closing cancels them.
package struct BiDiEndpoint: WebSocketEndpoint {
    private let service: @Sendable () -> WebDriverService?

    package init(service: @escaping @Sendable () -> WebDriverService?) {
        self.service = service
    }

    package func accepts(path: String) async -> Bool {
        guard let service = service(), let target = Self.sessionID(path) else { return false }
        guard let id = target else { return true }
        return await service.acceptsBiDi(sessionID: id)
    }

    package func serve(path: String, messages: AsyncStream<WebSocketMessage>, sink: WebSocketSink) async {
        guard let service = service(), let target = Self.sessionID(path) else { return }
        guard let connection = await BiDiConnection(service: service, sessionID: target, sink: sink) else { return }
        await withDiscardingTaskGroup { group in
            for await message in messages {
                guard case .text(let text) = message else {
                    let refusal = BiDiError(.invalidArgument, "WebDriver BiDi messages are text, not binary")
                    sink.send(refusal.text, answers: true)
                    continue
                }
                group.addTask {
                    do {
                        let command = try BiDiCommand.parse(text)
                        let (answer, ends) = await connection.execute(command)
                        sink.send(answer, answers: true)
                        // After session.end's own answer, the connection closes.
                        if ends { sink.close() }
                    } catch let error as BiDiError {
                        sink.send(error.text, answers: true)
                    } catch {
                        sink.send(BiDiError(error).text, answers: true)
                    }
                }
            }
            group.cancelAll()
        }
        await connection.closed()
    }

    // `/session` gives .some(nil); `/session/{id}` gives the id; any other path nil.
    static func sessionID(_ path: String) -> String?? {
        let parts = path.split(separator: "?", maxSplits: 1)[0].split(separator: "/", omittingEmptySubsequences: true)
        guard parts.first == "session", parts.count <= 2 else { return nil }
        return .some(parts.count == 2 ? String(parts[1]) : nil)
    }
}

extension WebDriverService {
    func acceptsBiDi(sessionID: String) -> Bool {
        (try? registry.session(sessionID))?.bidi != nil
    }
}

// One WebSocket's commands, on the engine actor: the session they drive, once there is one.
@EngineActor
final class BiDiConnection {
    private let service: WebDriverService
    private let sink: WebSocketSink
    private var sessionID: String?
    // Made by session.new on this connection: it ends with the connection.
    private var ownsSession = false
    // A session.new is under way (a second one waits for none, it is refused).
    private var creating = false

    init?(service: WebDriverService, sessionID: String?, sink: WebSocketSink) {
        self.service = service
        self.sink = sink
        if let sessionID {
            guard let session = try? service.registry.session(sessionID), let events = session.bidi else { return nil }
            events.attach(sink)
            self.sessionID = sessionID
        }
    }

    // The command's answer, and whether it ended the session (session.end succeeded).
    func execute(_ command: BiDiCommand) async -> (String, Bool) {
        do {
            let result = try await run(command)
            let ended = ["session.end", "browser.close"].contains(command.method)
            return (BiDiCommand.success(id: command.id, result), ended)
        } catch {
            var failure = BiDiError(error)
            failure.id = command.id
            return (failure.text, false)
        }
    }

    private func run(_ command: BiDiCommand) async throws -> JSONValue {
        let parameters = command.parameters
        switch command.method {
        case "session.status":
            let ready = sessionID == nil && service.registry.canCreate
            return ["ready": .bool(ready), "message": .string(ready ? "ready for a new session"
                : sessionID != nil ? "this connection has a session" : "the server runs its maximum of sessions")]
        case "session.new":
            guard sessionID == nil, !creating else {
                throw BiDiError(.sessionNotCreated, "this connection has a session already")
            }
            creating = true
            defer { creating = false }
            let requested = parameters.body["capabilities"] ?? [:]
            var capabilities = try Capabilities(newSessionBody: ["capabilities": requested])
            capabilities.webSocketUrl = true
            let session = try await service.registry.create(capabilities)
            session.bidi?.attach(sink)
            sessionID = session.id
            ownsSession = true
            return ["sessionId": .string(session.id), "capabilities": service.capabilitiesJSON(of: session)]
        default:
            break
        }
        guard let sessionID else {
            throw BiDiError(.invalidSessionID, "no session: send session.new first, or connect to /session/{id}")
        }
        let session = try service.registry.session(sessionID)
        guard let events = session.bidi else { throw BiDiError(.invalidSessionID, "the session has no BiDi") }
        switch command.method {
        case "browser.close" where !ownsSession:
            // As Firefox: a session begun over HTTP ends with classic Delete Session.
            throw BiDiError(.unsupportedOperation, "this session began with classic New Session: end it with "
                + "Delete Session (Selenium: driver.quit()); browser.close ends a session begun with session.new")
        case "session.end", "browser.close":
            // Answered on this connection before it closes; the session's others close now.
            events.detach(sink)
            await session.queue.close()
            service.registry.delete(session.id)
            self.sessionID = nil
            return [:]
        case "session.subscribe":
            return try BiDiSubscribe.subscribe(BiDiCall(session: session, events: events, parameters: parameters))
        case "session.unsubscribe":
            return try BiDiSubscribe.unsubscribe(BiDiCall(session: session, events: events, parameters: parameters))
        default:
            if let handler = BiDiNetworkCommands.handlers[command.method] {
                session.touch()
                return try await handler(BiDiCall(session: session, events: events, parameters: parameters))
            }
            // Scripts name their target and leave the current window and frame alone: they run
            // beside the queue, so a promise that never settles holds only its own command.
            if BiDiScript.besideTheQueue.contains(command.method), let handler = Self.handlers[command.method] {
                session.touch()
                defer { session.touch() }
                return try await handler(BiDiCall(session: session, events: events, parameters: parameters))
            }
            guard let handler = Self.handlers[command.method] else {
                throw BiDiError(.unknownCommand, "\(command.method) is not a command headway knows")
            }
            return try await session.queue.run {
                session.touch()
                defer { session.touch() }
                return try await handler(BiDiCall(session: session, events: events, parameters: parameters))
            }
        }
    }

    static let handlers: [String: BiDiHandler] = [
        BiDiContexts.handlers, BiDiLocate.handlers, BiDiScript.handlers, BiDiPreloads.handlers,
        BiDiStorage.handlers, BiDiInput.handlers, BiDiHeadway.handlers, BiDiBrowser.handlers,
        BiDiScreenshot.handlers, BiDiDataCollectors.handlers,
    ].reduce(into: [:]) { table, module in table.merge(module) { first, _ in first } }

    // The WebSocket closed: a session it made ends with it.
    func closed() async {
        guard let sessionID, let session = try? service.registry.session(sessionID) else { return }
        session.bidi?.detach(sink)
        guard ownsSession else { return }
        await session.queue.close()
        service.registry.delete(sessionID)
    }
}
