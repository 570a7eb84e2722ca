import Foundation
import Headway

// The protocol without the socket: a request's method, path and body in, a status and a JSON body
// out. The HTTP layer calls `handle`; tests may call it directly.
@EngineActor
package final class WebDriverService {
    package struct Options: Sendable {
        package var maxSessions = 8
        // A session unused for this long is deleted; nil keeps sessions until deleted.
        package var sessionTimeout: Duration?
        // Browsers kept warm for New Session (at most maxSessions); 0 starts each one fresh. The
        // CLI keeps `standardWarmBrowsers`; tests of commands need none.
        package var warmBrowsers = 0
        package static let standardWarmBrowsers = 2
        // Where WebDriver BiDi's WebSockets are (ws://HOST:PORT), or nil when none are served.
        package var webSocketBase: String?
        // Whether sessions' pages are composited unless "headway:options" says otherwise
        // (`headway webdriver --no-compositing` sets false, for the warm browsers too).
        package var acceleratedCompositing = true
        package init() {}
    }

    package let options: Options
    package let registry: SessionRegistry
    private var reaper: Task<Void, Never>?

    package init(options: Options = Options()) {
        self.options = options
        registry = SessionRegistry(maxSessions: options.maxSessions, warmBrowsers: options.warmBrowsers,
                                   acceleratedCompositing: options.acceleratedCompositing)
        if let timeout = options.sessionTimeout { reaper = Task { [weak self] in await self?.reap(timeout) } }
    }

    // Deletes the sessions unused for `timeout`, checking a few times per timeout, until shutdown.
    private func reap(_ timeout: Duration) async {
        let period = min(max(timeout / 4, .milliseconds(50)), .seconds(5))
        while !Task.isCancelled {
            try? await Task.sleep(for: period)
            for session in registry.idle(for: timeout) {
                await session.queue.close()
                registry.delete(session.id)
            }
        }
    }

    // Parses a body as the command's parameters: a JSON object for POST (an empty body counts as
    // {}), ignored for GET and DELETE. Runs off the engine thread.
    package nonisolated static func parameters(
        method: String, body: Data
    ) throws(WebDriverError) -> [String: JSONValue] {
        guard method.uppercased() == "POST", !body.isEmpty else { return [:] }
        let value: JSONValue
        do { value = try JSONDecoder().decode(JSONValue.self, from: body) } catch {
            throw WebDriverError(.invalidArgument, "the body cannot be read as JSON: \(Self.describe(error))")
        }
        guard case .object(let object) = value else {
            throw WebDriverError(.invalidArgument, "the body must be a JSON object")
        }
        return object
    }

    // What a decoding failure says, in one line (localizedDescription only says "could not be completed").
    nonisolated static func describe(_ error: any Error) -> String {
        var text: String
        switch error {
        case DecodingError.dataCorrupted(let context), DecodingError.typeMismatch(_, let context),
             DecodingError.valueNotFound(_, let context), DecodingError.keyNotFound(_, let context):
            text = context.debugDescription
            if let underlying = context.underlyingError as NSError?,
               let detail = underlying.userInfo[NSDebugDescriptionErrorKey] as? String {
                text += " (\(detail))"
            }
        default:
            text = "\(error)"
        }
        text = text.replacingOccurrences(of: "\n", with: " ")
        return text.isEmpty ? "it is malformed or nests too deep" : text
    }

    // Answers one request: the status and the body `{"value": ...}`.
    package nonisolated func handle(method: String, path: String, body: Data) async -> (status: Int, body: JSONValue) {
        do throws(WebDriverError) {
            let match = try Router.match(method: method, path: path)
            let parameters = try Self.parameters(method: method, body: body)
            let request = CommandRequest(command: match.command, parameters: match.parameters, body: parameters)
            let value = await execute(request)
            switch value {
            case .success(let value): return (200, ["value": value])
            case .failure(let error): return (error.code.httpStatus, error.body)
            }
        } catch {
            return (error.code.httpStatus, error.body)
        }
    }

    package func execute(_ request: CommandRequest) async -> Result<JSONValue, WebDriverError> {
        do {
            return .success(try await run(request))
        } catch {
            return .failure(WebDriverError.from(error))
        }
    }

    private func run(_ request: CommandRequest) async throws -> JSONValue {
        switch request.command {
        case .status:
            let ready = registry.canCreate
            return ["ready": .bool(ready), "message": .string(ready ? "ready for a new session"
                : "running its maximum of \(registry.maxSessions) sessions")]
        case .newSession:
            let capabilities = try Capabilities(newSessionBody: request.body)
            if capabilities.webSocketUrl, options.webSocketBase == nil {
                throw WebDriverError(.sessionNotCreated, "this server serves no WebSocket for WebDriver BiDi")
            }
            let session = try await registry.create(capabilities)
            return ["sessionId": .string(session.id), "capabilities": capabilitiesJSON(of: session)]
        case .deleteSession:
            let session = try registry.session(request.parameter("sessionId"))
            // The running command is cancelled (a long pause, a script waiting): it ends first,
            // bounded; the commands waiting behind it fail.
            await session.queue.close()
            registry.delete(session.id)
            return .null
        default:
            let session = try registry.session(request.parameter("sessionId"))
            guard let handler = Handlers.all[request.command] else {
                throw WebDriverError(.unsupportedOperation, "\(request.command) is not supported by headway")
            }
            let value = try await session.queue.run {
                session.touch()
                defer { session.touch() }
                try await session.handleUserPrompt(before: request.command)
                return try await handler(session, request)
            }
            // Closing the last window ends the session.
            if session.windows.isEmpty { registry.delete(session.id) }
            return value
        }
    }

    // The capabilities a session reports, with its WebSocket URL when it speaks BiDi.
    func capabilitiesJSON(of session: Session) -> JSONValue {
        guard case .object(var json) = session.capabilities.json else { return session.capabilities.json }
        if session.bidi != nil, let base = options.webSocketBase {
            json["webSocketUrl"] = .string("\(base)/session/\(session.id)")
        }
        return .object(json)
    }

    // Ends every session: on SIGTERM or SIGINT.
    package func shutdown() {
        reaper?.cancel()
        reaper = nil
        for session in registry.sessions.values { session.queue.cancel() }
        registry.deleteAll()
    }
}
