import Foundation
import Headway

// Preload scripts (script.addPreloadScript): a function run in every new document of the
// contexts named, or of the user contexts named, or of every context (those opened later too),
// before the page's own scripts,
// as the library's init scripts. Its arguments are channels: calling one sends a script.message
// event with the value serialized, through the `headway` message handler (captured at document
// start, before the page can touch it).
@EngineActor
final class BiDiPreloads {
    struct Preload {
        let source: String
        let contexts: Set<String>?
        let userContexts: Set<String>?
        // Each window's copy, by handle (the page held weakly: a closed one goes).
        var installed: [String: (page: WeakPageRef, script: InitScript)] = [:]
    }

    private var preloads: [String: Preload] = [:]

    func add(function: String, channels: [String], contexts: Set<String>?, userContexts: Set<String>?,
             session: Session) throws -> String {
        let id = UUID().uuidString.lowercased()
        let arguments = channels.map { "channel(\(JSONValue.string($0).jsonText))" }.joined(separator: ", ")
        let source = """
            // headway preload script \(id)
            (() => {
              const NK = \(JSONValue.string(BiDiRemoteValue.nodeKey()).jsonText);
              const handler = window.webkit && window.webkit.messageHandlers && window.webkit.messageHandlers.headway;
              const post = handler ? handler.postMessage.bind(handler) : () => {};
              const stringify = JSON.stringify;
            \(BiDiRemoteValue.serializer)
              const channel = (id) => (value) => {
                const drop = (k, v) => (k === NK ? undefined : v);
                try {
                  const data = serialize(value, 64, 0, 'none');
                  post(stringify({ kind: 'message', data: { channel: id, data } }, drop));
                }
                catch (_) {}
              };
              try { (\(function)
              ).apply(undefined, [\(arguments)]); } catch (e) { console.error(e); }
            })();
            """
        preloads[id] = Preload(source: source, contexts: contexts, userContexts: userContexts)
        session.syncWindows()
        for window in session.windows {
            try install(id, on: window.page, handle: window.handle, userContext: window.userContext)
        }
        return id
    }

    func remove(_ id: String) throws {
        guard let preload = preloads.removeValue(forKey: id) else {
            throw BiDiError(.noSuchScript, "no preload script has the id \(id)")
        }
        for (page, script) in preload.installed.values {
            if let page = page.page, !page.isClosed { try? page.removeInitScript(script) }
        }
    }

    // Installs every preload script that applies to a window opened now (one its opener's
    // scripts already run in keeps that copy).
    func windowOpened(_ page: Page, handle: String, userContext: String) {
        for id in preloads.keys { try? install(id, on: page, handle: handle, userContext: userContext) }
    }

    private func install(_ id: String, on page: Page, handle: String, userContext: String) throws {
        guard var preload = preloads[id], preload.contexts?.contains(handle) ?? true,
              preload.userContexts?.contains(userContext) ?? true, preload.installed[handle] == nil else { return }
        let script = try page.initScripts.first { $0.source == preload.source } ?? page.addInitScript(preload.source)
        preload.installed[handle] = (WeakPageRef(page: page), script)
        preloads[id] = preload
    }

    // The window `handle` closed.
    func forget(_ handle: String) {
        for id in preloads.keys { preloads[id]?.installed[handle] = nil }
    }

    static let handlers: [String: BiDiHandler] = [
        "script.addPreloadScript": { call in
            let function = try call.parameters.string("functionDeclaration")
            if let sandbox = try call.parameters.optionalString("sandbox"), !sandbox.isEmpty {
                throw BiDiError(.unsupportedOperation, "headway runs preload scripts in the page's own realm")
            }
            let channels = try (call.parameters.body["arguments"].flatMap { $0 == .null ? nil : $0 } ?? [])
                .arrayValue(or: BiDiError(.invalidArgument, "\"arguments\" must be an array of channels"))
                .map { argument throws in
                    guard argument["type"] == "channel", let id = argument["value"]?["channel"]?.stringValue else {
                        throw BiDiError(.invalidArgument, "a preload script's arguments must be channels")
                    }
                    return id
                }
            let userContexts = try call.userContextList("userContexts").map(Set.init)
            let contexts = try call.contextList()
            let id = try call.events.preloads.add(function: function, channels: channels, contexts: contexts,
                                                  userContexts: userContexts, session: call.session)
            return ["script": .string(id)]
        },
        "script.removePreloadScript": { call in
            try call.events.preloads.remove(try call.parameters.string("script"))
            return [:]
        },
    ]
}

// A page, not kept alive.
struct WeakPageRef {
    weak var page: Page?
}

extension JSONValue {
    func arrayValue(or error: BiDiError) throws -> [JSONValue] {
        guard case .array(let items) = self else { throw error }
        return items
    }
}
