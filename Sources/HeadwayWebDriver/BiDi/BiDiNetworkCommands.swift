import Foundation
import Headway

// The network module's commands (https://w3c.github.io/webdriver-bidi/#module-network-commands).
// They run outside the session's command queue: a navigation waiting in it may be waiting for
// the very request a continueRequest releases.
@EngineActor
enum BiDiNetworkCommands {
    static let handlers: [String: BiDiHandler] = [
        "network.addIntercept": { call in
            let phases = try call.parameters.array("phases").map { $0.stringValue ?? "" }
            guard !phases.isEmpty else { throw BiDiError(.invalidArgument, "\"phases\" must not be empty") }
            for phase in phases where !["beforeRequestSent", "authRequired"].contains(phase) {
                guard phase == "responseStarted" else {
                    throw BiDiError(.invalidArgument, "\(phase) is not an intercept phase "
                        + "(beforeRequestSent, responseStarted or authRequired)")
                }
                throw BiDiError(.unsupportedOperation, "headway cannot intercept in the responseStarted phase: "
                    + "WebKit gives no point where a response could wait for the client")
            }
            let given = call.parameters.body["urlPatterns"]
            let patterns = try given.flatMap { value throws(BiDiError) -> [BiDiURLPattern]? in
                guard value != .null else { return nil }
                guard case .array(let list) = value else {
                    throw BiDiError(.invalidArgument, "\"urlPatterns\" must be an array")
                }
                return try list.map { value throws(BiDiError) in try BiDiURLPattern(value) }
            }
            let contexts = try call.contextList()
            let id = UUID().uuidString.lowercased()
            try call.events.intercepts.add(.init(id: id, phases: Set(phases), patterns: patterns, contexts: contexts))
            call.events.intercepts.refresh(call.session, call.events)
            return ["intercept": .string(id)]
        },
        "network.removeIntercept": { call in
            try call.events.intercepts.remove(try call.parameters.string("intercept"))
            call.events.intercepts.refresh(call.session, call.events)
            return [:]
        },
        "network.continueRequest": { call in
            let id = try call.parameters.string("request")
            try notAuth(id, call)
            let blocked = try call.events.intercepts.blocked(id)
            for key in ["body", "cookies"] where call.parameters.body[key].map({ $0 != .null }) ?? false {
                throw BiDiError(.unsupportedOperation, "continueRequest cannot change a request's \(key): "
                    + "WebKit gives no way to")
            }
            if let method = try call.parameters.optionalString("method"), method != blocked.method {
                throw BiDiError(.unsupportedOperation, "continueRequest cannot change a request's method: "
                    + "WebKit gives no way to")
            }
            var url: URL?
            if let text = try call.parameters.optionalString("url") {
                guard let parsed = URL(string: text), ["http", "https"].contains(parsed.scheme?.lowercased() ?? "")
                else {
                    throw BiDiError(.invalidArgument, "\"url\" must be an http or https URL, not \(text)")
                }
                url = parsed
            }
            let headers = try call.parameters.body["headers"].flatMap { value throws(BiDiError) in
                value == .null ? nil : try BiDiNetworkCommands.headers(value)
            }
            // Unchanged, it goes as the page made it (with the session's extra headers).
            call.events.intercepts.release(id, url == nil && headers == nil
                ? .proceed : .change(url: url, headers: headers ?? blocked.headers))
            return [:]
        },
        "network.failRequest": { call in
            let id = try call.parameters.string("request")
            if call.events.intercepts.isBlockedAuth(id) {
                throw BiDiError(.invalidArgument, "request \(id) is blocked in the authRequired phase: "
                    + "answer it with continueWithAuth")
            }
            let blocked = try call.events.intercepts.blocked(id)
            // A document kept off the network: WebKit shows an empty page and reports no failure.
            let destination = BiDiIntercepts.destination(blocked.headers)
            if destination == "document" || (destination == nil && blocked.isDocument) {
                call.events.documentFailed(blocked.url, handle: blocked.handle)
            }
            call.events.intercepts.release(id, .fail)
            return [:]
        },
        "network.provideResponse": { call in
            let id = try call.parameters.string("request")
            try notAuth(id, call)
            if try call.events.intercepts.blocked(id).isDocument {
                throw BiDiError(.unsupportedOperation, "provideResponse cannot answer a document (a context's or a "
                    + "frame's): WebKit would show it under another URL (continue or fail the request)")
            }
            if call.parameters.body["cookies"].map({ $0 != .null }) ?? false {
                throw BiDiError(.unsupportedOperation, "provideResponse cannot set cookies: give a Set-Cookie header")
            }
            let status = try call.optionalInteger("statusCode", in: 100...599) ?? 200
            let headers = try call.parameters.body["headers"].flatMap { value throws(BiDiError) in
                value == .null ? nil : try BiDiNetworkCommands.headers(value)
            } ?? []
            var body = Data()
            if let value = call.parameters.body["body"], value != .null { body = try bytes(value, "body") }
            let reason = try call.parameters.optionalString("reasonPhrase")
            call.events.intercepts.release(
                id, .respond(HeldResponse(status: status, reason: reason, headers: headers, body: body))
            )
            return [:]
        },
        "network.continueResponse": { call in
            // Only a challenge can be blocked after a response began here (authRequired).
            let id = try call.parameters.string("request")
            guard call.events.intercepts.isBlockedAuth(id) else {
                throw BiDiError(.noSuchRequest, "no request is blocked in the responseStarted or authRequired "
                    + "phase with the id \(id)")
            }
            let answer = try credentials(call.parameters.body["credentials"]) ?? .default
            call.events.intercepts.answer(id, answer)
            return [:]
        },
        "network.continueWithAuth": { call in
            let id = try call.parameters.string("request")
            guard call.events.intercepts.isBlockedAuth(id) else {
                throw BiDiError(.noSuchRequest, "no request is blocked in the authRequired phase with the id \(id)")
            }
            let answer: AuthAnswer
            switch try call.parameters.string("action") {
            case "default": answer = .default
            // The spec's cancel: the 401 response goes on to the page, with no credentials.
            case "cancel": answer = .withoutCredentials
            case "provideCredentials":
                guard let given = try credentials(call.parameters.body["credentials"]) else {
                    throw BiDiError(.invalidArgument, "provideCredentials needs \"credentials\"")
                }
                answer = given
            case let other:
                throw BiDiError(.invalidArgument,
                                "\"action\" must be default, cancel or provideCredentials, not \(other)")
            }
            call.events.intercepts.answer(id, answer)
            return [:]
        },
        "network.setCacheBehavior": { call in
            let behaviour = try call.parameters.string("cacheBehavior")
            guard ["default", "bypass"].contains(behaviour) else {
                throw BiDiError(.invalidArgument, "\"cacheBehavior\" must be default or bypass, not \(behaviour)")
            }
            let keys: [String?] = try call.contextList().map { Array($0) } ?? [nil]
            for key in keys {
                if behaviour == "bypass" {
                    call.events.intercepts.bypassesCache.insert(key)
                } else {
                    call.events.intercepts.bypassesCache.remove(key)
                }
            }
            call.events.intercepts.refresh(call.session, call.events)
            return [:]
        },
        "network.setExtraHeaders": { call in
            let headers = try BiDiNetworkCommands.headers(call.parameters.body["headers"] ?? .null)
            let userContexts = try call.userContextList("userContexts")
            let contexts = try call.contextList()
            let keys: [String?] = userContexts.map { $0.map(BiDiIntercepts.key(userContext:)) }
                ?? contexts.map { Array($0) } ?? [nil]
            for key in keys { call.events.intercepts.extraHeaders[key] = headers.isEmpty ? nil : headers }
            call.events.intercepts.refresh(call.session, call.events)
            return [:]
        },
    ]

    // A request blocked in the authRequired phase is answered only with continueWithAuth or
    // continueResponse (the spec's invalid argument for the others).
    private static func notAuth(_ id: String, _ call: BiDiCall) throws(BiDiError) {
        guard !call.events.intercepts.isBlockedAuth(id) else {
            throw BiDiError(.invalidArgument, "request \(id) is blocked in the authRequired phase: "
                + "answer it with continueWithAuth")
        }
    }

    // network.AuthCredentials: {type: "password", username, password}; nil when absent.
    private static func credentials(_ value: JSONValue?) throws(BiDiError) -> AuthAnswer? {
        guard let value, value != .null else { return nil }
        guard value["type"]?.stringValue == "password", let user = value["username"]?.stringValue,
              let password = value["password"]?.stringValue else {
            throw BiDiError(.invalidArgument, "\"credentials\" must be {\"type\": \"password\", \"username\": ..., "
                + "\"password\": ...}")
        }
        return .credentials(user: user, password: password)
    }

    // A list of network.Header: each {name, value: {type: string|base64, value}}.
    private static func headers(_ value: JSONValue) throws(BiDiError) -> [ResourceEntry.Header] {
        guard case .array(let list) = value else { throw BiDiError(.invalidArgument, "\"headers\" must be an array") }
        return try list.map { entry throws(BiDiError) in
            guard let name = entry["name"]?.stringValue, !name.isEmpty,
                  name.utf8.allSatisfy({ $0 > 32 && $0 < 127 && $0 != UInt8(ascii: ":") }) else {
                throw BiDiError(.invalidArgument, "a header needs a \"name\" that is a header name")
            }
            let value = String(decoding: try bytes(entry["value"] ?? .null, "value"), as: UTF8.self)
            guard !value.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\0" }) else {
                throw BiDiError(.invalidArgument, "the value of header \(name) has a line break or NUL")
            }
            return ResourceEntry.Header(name: name, value: value)
        }
    }

    // A network.BytesValue: {type: "string", value} or {type: "base64", value}.
    private static func bytes(_ value: JSONValue, _ key: String) throws(BiDiError) -> Data {
        guard let type = value["type"]?.stringValue, let text = value["value"]?.stringValue else {
            throw BiDiError(.invalidArgument, "\"\(key)\" must be {\"type\": \"string\" or \"base64\", \"value\": ...}")
        }
        switch type {
        case "string": return Data(text.utf8)
        case "base64":
            guard let data = Data(base64Encoded: text) else {
                throw BiDiError(.invalidArgument, "\"\(key)\" is not base64")
            }
            return data
        default:
            throw BiDiError(.invalidArgument, "\"\(key)\".type must be string or base64, not \(type)")
        }
    }
}
