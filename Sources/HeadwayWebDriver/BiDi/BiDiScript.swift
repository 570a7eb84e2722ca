import Foundation
import Headway

// The script module (https://w3c.github.io/webdriver-bidi/#module-script): evaluate and
// callFunction in a top-level context's page world, through the classic Execute Script path (so
// the session's script timeout bounds them, as it does classic scripts), and the realms.
@EngineActor
enum BiDiScript {
    static let handlers: [String: BiDiHandler] = [
        "script.evaluate": { call in
            let expression = try call.parameters.string("expression")
            return try await run(call, ["run": "evaluate", "expression": .string(expression)], function: "null")
        },
        "script.callFunction": { call in
            let function = try call.parameters.string("functionDeclaration")
            let arguments = call.parameters.body["arguments"] ?? []
            guard case .array(let items) = arguments else {
                throw BiDiError(.invalidArgument, "\"arguments\" must be an array")
            }
            let key = BiDiRemoteValue.nodeKey()
            return try await run(call, [
                "run": "call", "nodeKey": .string(key),
                "args": .array(try items.map { try BiDiRemoteValue.local($0, nodeKey: key) }),
                "this": try call.parameters.body["this"].flatMap { $0 == .null ? nil : $0 }
                    .map { try BiDiRemoteValue.local($0, nodeKey: key) } ?? .null,
            ], function: function)
        },
        "script.getRealms": { call in
            call.session.syncWindows()
            var windows = call.session.windows
            if let context = try call.parameters.optionalString("context") {
                let (frame, _) = try call.anyContext(context)
                if !frame.isTopLevel {
                    if let type = try call.parameters.optionalString("type"), type != "window" { return ["realms": []] }
                    let url = URL(string: try await BiDiFrames.url(of: frame, session: call.session))
                    return ["realms": [["realm": .string(call.realm(of: frame)), "type": "window",
                                        "context": .string(frame.id), "origin": .string(BiDiEvents.origin(of: url))]]]
                }
                windows = windows.filter { $0.handle == context }
            }
            if let type = try call.parameters.optionalString("type"), type != "window" { return ["realms": []] }
            return ["realms": .array(windows.flatMap { window in
                let origin = JSONValue.string(BiDiEvents.origin(of: window.page.url))
                let page: JSONValue = ["realm": .string(call.events.realmID(of: window.handle)), "type": "window",
                                       "context": .string(window.handle), "origin": origin]
                // The sandboxes used in its document since it came.
                return [page] + call.events.sandboxes(of: window.handle).map { sandbox in
                    ["realm": .string(sandbox.realm), "type": "window", "context": .string(window.handle),
                     "origin": origin, "sandbox": .string(sandbox.name)]
                }
            })]
        },
        // The handles go from the document's table; one already gone is no error, as the spec says.
        "script.disown": { call in
            let (context, sandbox) = try call.target()
            let handles = try call.parameters.array("handles").map { value throws -> JSONValue in
                guard value.stringValue != nil else { throw BiDiError(.invalidArgument, "a handle must be a string") }
                return value
            }
            // A sandbox's results have no handles: nothing to let go there.
            guard sandbox == nil else { return [:] }
            _ = try await call.session.inContext(context.handle, frames: context.framePath) {
                try await call.session.runUserScript("""
                    const H = \(PristineLookup.expression), ids = arguments[0];
                    const T = H && typeof H.handles === 'function' ? H.handles(arguments[1]) : null;
                    if (T) for (let i = 0; i < ids.length; i += 1) T.drop(ids[i]);
                    """, [.array(handles), .string(HandleTable.key)], async: false)
            }
            return [:]
        },
    ]

    // The commands that run beside the session's command queue (BiDiConnection).
    static let besideTheQueue: Set<String> = ["script.evaluate", "script.callFunction"]

    // What the extension answers a sandbox beyond its bound (Sources/HeadwayWebExtension/bridge.c).
    static let tooManySandboxes = "at most 64 sandboxes"

    static func run(
        _ call: BiDiCall, _ payload: [String: JSONValue], function: String
    ) async throws -> JSONValue {
        let (context, sandbox) = try call.target()
        let handle = context.handle
        var payload = payload
        let key = payload["nodeKey"]?.stringValue ?? BiDiRemoteValue.nodeKey()
        payload["nodeKey"] = .string(key)
        payload["awaitPromise"] = .bool(try call.parameters.bool("awaitPromise"))
        let options = try SerializationOptions(call.parameters.body["serializationOptions"])
        payload["depth"] = options.depth
        payload["dom"] = options.dom
        payload["shadow"] = options.shadow
        if let activation = call.parameters.body["userActivation"], activation.boolValue == nil {
            throw BiDiError(.invalidArgument, "\"userActivation\" must be a boolean")
        }
        payload["handleKey"] = .string(HandleTable.key)
        switch try call.parameters.optionalString("resultOwnership") ?? "none" {
        case "root": payload["root"] = true
        case "none": payload["root"] = false
        case let other:
            throw BiDiError(.invalidArgument, "\"resultOwnership\" must be \"root\" or \"none\", not \(other)")
        }
        let body = BiDiRemoteValue.body.replacingOccurrences(of: #"\(FUNCTION)"#, with: function)
        var realm = JSONValue.string(call.realm(of: context))
        let answer: JSONValue
        do {
            answer = try await call.session.runUserScript(body, [.object(payload)], async: true, sandbox: sandbox,
                                                          at: (handle, context.framePath))
            // The sandbox's realm, made by this first call in the document (reported once it ran).
            if let sandbox {
                let url = try call.context(handle).page.url
                realm = .string(call.events.sandboxRealm(handle, sandbox, url: url))
            }
        } catch let error as WebDriverError where error.code == .javascriptError {
            if sandbox != nil, error.message.contains(BiDiScript.tooManySandboxes) {
                throw BiDiError(.unsupportedOperation, "a web process has at most 64 sandbox names: reuse one")
            }
            // The function declaration did not compile.
            return ["type": "exception", "realm": realm, "exceptionDetails": [
                "text": .string(error.message), "lineNumber": 0, "columnNumber": 0,
                "exception": ["type": "error"], "stackTrace": ["callFrames": []],
            ]]
        }
        if let missing = answer["missing"]?.stringValue {
            throw BiDiError(.noSuchHandle, "no object has the handle \(missing) in this realm (a handle goes with its "
                + "document, and with script.disown)")
        }
        if let thrown = answer["thrown"] {
            return ["type": "exception", "realm": realm, "exceptionDetails": [
                "text": answer["text"] ?? "", "lineNumber": 0, "columnNumber": 0,
                "exception": BiDiRemoteValue.remote(thrown, context: context, nodeKey: key),
                "stackTrace": ["callFrames": []],
            ]]
        }
        return ["type": "success", "realm": realm,
                "result": BiDiRemoteValue.remote(answer["ok"] ?? ["type": "undefined"], context: context, nodeKey: key)]
    }
}

extension BiDiCall {
    // The context of `params.target` ({context} or {realm}), a top-level one or a frame.
    func target() throws -> (context: ContextID, sandbox: String?) {
        guard case .object(let target)? = parameters.body["target"],
              target["context"] != nil || target["realm"] != nil else {
            throw BiDiError(.invalidArgument, "\"target\" must be an object: {\"context\": id} or {\"realm\": id}")
        }
        for key in ["context", "realm"] where target[key] != nil && target[key]?.stringValue == nil {
            throw BiDiError(.invalidArgument, "the target's \"\(key)\" must be a string")
        }
        if let context = target["context"]?.stringValue {
            var sandbox: String?
            if let named = target["sandbox"], named != .null {
                guard let name = named.stringValue, !name.isEmpty, name.utf8.count <= 256, !name.contains("\0") else {
                    throw BiDiError(.invalidArgument, "\"sandbox\" must be a name of 1 to 256 bytes, without NUL")
                }
                sandbox = name
            }
            let frame = try anyContext(context).0
            if sandbox != nil, !frame.isTopLevel {
                throw BiDiError(.unsupportedOperation, "headway runs sandboxes in top-level contexts, not in frames")
            }
            return (frame, sandbox)
        }
        if let realm = target["realm"]?.stringValue, realm.hasPrefix("realm-") {
            session.syncWindows()
            for window in session.windows {
                if events.realmID(of: window.handle) == realm { return (ContextID(handle: window.handle), nil) }
                if let name = events.sandbox(ofRealm: realm, handle: window.handle) {
                    return (ContextID(handle: window.handle), name)
                }
            }
            // A frame's realm is named by its context.
            if let frame = ContextID(String(realm.dropFirst(6))), !frame.isTopLevel {
                return (try anyContext(frame.id).0, nil)
            }
        }
        throw BiDiError(.noSuchFrame, "the target names no context or realm headway knows (a realm goes with its "
            + "document: script.getRealms gives the current ones)")
    }

    // The realm of `context`'s document: a window's counts its documents; a frame's is named by it.
    func realm(of context: ContextID) -> String {
        context.isTopLevel ? events.realmID(of: context.handle) : BiDiContexts.realm(of: context.id)
    }
}
