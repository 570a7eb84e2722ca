import Foundation
import Headway

// session.subscribe and session.unsubscribe: their parameters checked in full before anything
// changes, so a command that fails leaves the session's subscriptions as they were.
@EngineActor
enum BiDiSubscribe {
    static func subscribe(_ call: BiDiCall) throws -> JSONValue {
        let wanted = try BiDiEvents.expand(try strings("events", call))
        if let list = call.parameters.body["userContexts"], list != .null {
            throw BiDiError(.unsupportedOperation, "headway subscribes globally or by context, not by user "
                + "context: name the contexts (browsingContext.getTree gives each one's user context)")
        }
        let contexts = try windows(call)
        let events = call.events, session = call.session
        let id = try events.subscriptions.add(wanted, contexts: contexts)
        // The contexts and realms open now, as the spec reports them to a new subscription.
        session.syncWindows()
        if wanted.contains("browsingContext.contextCreated") || wanted.contains("script.realmCreated") {
            for window in session.windows where contexts?.contains(window.handle) ?? true {
                if wanted.contains("browsingContext.contextCreated") {
                    events.emit("browsingContext.contextCreated",
                                BiDiContexts.info(handle: window.handle, url: window.page.url,
                                                  userContext: session.userContext(of: window.page)),
                                context: window.handle)
                }
                if wanted.contains("script.realmCreated") {
                    events.realm(created: true, handle: window.handle, url: window.page.url, isNew: false)
                    for sandbox in events.sandboxes(of: window.handle) {
                        events.sandboxRealmCreated(sandbox, handle: window.handle, url: window.page.url)
                    }
                }
            }
        }
        // Log entries that came while nothing covered their window go first, before the answer.
        for text in events.subscriptions.takeBuffered(for: wanted, contexts: contexts,
                                                      handles: session.windows.map(\.handle)) {
            events.send(text)
        }
        return ["subscription": .string(id)]
    }

    static func unsubscribe(_ call: BiDiCall) throws -> JSONValue {
        if let ids = call.parameters.body["subscriptions"], ids != .null {
            guard call.parameters.body["events"] == nil else {
                throw BiDiError(.invalidArgument, "give \"subscriptions\" or \"events\", not both")
            }
            try call.events.subscriptions.remove(ids: try strings("subscriptions", call, orEmpty: true))
        } else {
            let events = try BiDiEvents.expand(try strings("events", call))
            try call.events.subscriptions.remove(events: events, contexts: try windows(call))
        }
        return [:]
    }

    // `params[key]`: an array of strings, not empty unless `orEmpty`.
    private static func strings(_ key: String, _ call: BiDiCall, orEmpty: Bool = false) throws -> [String] {
        guard case .array(let values)? = call.parameters.body[key], orEmpty || !values.isEmpty else {
            throw BiDiError(.invalidArgument, "\"\(key)\" must be a non-empty array of strings")
        }
        return try values.map { value throws(BiDiError) in
            guard let string = value.stringValue else {
                throw BiDiError(.invalidArgument, "\"\(key)\" must hold strings only, not \(value)")
            }
            return string
        }
    }

    // `params.contexts` as the windows they are in (a frame's events are its window's), or nil.
    private static func windows(_ call: BiDiCall) throws -> Set<String>? {
        guard let list = call.parameters.body["contexts"], list != .null else { return nil }
        return Set(try strings("contexts", call).map { try call.anyContext($0).0.handle })
    }
}
