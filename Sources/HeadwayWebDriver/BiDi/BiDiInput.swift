import Foundation
import Headway

// The input module (https://w3c.github.io/webdriver-bidi/#module-input): the classic Perform
// Actions, Release Actions and a file input's Element Send Keys, run in the named context, so
// BiDi's input is the same trusted input (and the session's one input state).
@EngineActor
enum BiDiInput {
    static let handlers: [String: BiDiHandler] = [
        "input.performActions": { call in
            let actions = try classicOrigins(call.parameters.body["actions"] ?? .null)
            try await classic(.performActions, call, body: ["actions": actions])
            return [:]
        },
        "input.releaseActions": { call in
            try await classic(.releaseActions, call, body: [:])
            return [:]
        },
        "input.setFiles": { call in
            guard case .object(let element)? = call.parameters.body["element"],
                  let id = element["sharedId"]?.stringValue else {
                throw BiDiError(.invalidArgument, "\"element\" must be a node: {\"sharedId\": ...}")
            }
            let files = try call.parameters.array("files").map { file throws in
                guard let path = file.stringValue, !path.isEmpty, !path.contains("\n") else {
                    throw BiDiError(.invalidArgument, "each of \"files\" must be a path")
                }
                return path
            }
            try await classic(.elementSendKeys, call, parameters: ["elementId": id],
                              body: ["text": .string(files.joined(separator: "\n"))])
            return [:]
        },
    ]

    private static func classic(
        _ command: Command, _ call: BiDiCall, parameters: [String: String] = [:], body: [String: JSONValue]
    ) async throws {
        let (handle, _) = try call.context(frameError: .unsupportedOperation)
        guard let handler = Handlers.all[command] else { return }
        let request = CommandRequest(command: command, parameters: parameters, body: body)
        _ = try await call.session.inContext(handle) { try await handler(call.session, request) }
    }

    // BiDi's element origin ({type: "element", element: {sharedId}}) as the classic element reference.
    private static func classicOrigins(_ value: JSONValue) throws -> JSONValue {
        switch value {
        case .object(var object):
            if case .object(let origin)? = object["origin"], origin["type"] == "element" {
                guard let id = origin["element"]?["sharedId"]?.stringValue else {
                    throw BiDiError(.invalidArgument, "an element origin needs {\"element\": {\"sharedId\": ...}}")
                }
                object["origin"] = [ScriptRuntime.elementKey: .string(id)]
            }
            return .object(try object.mapValues(classicOrigins))
        case .array(let items): return .array(try items.map(classicOrigins))
        default: return value
        }
    }
}
