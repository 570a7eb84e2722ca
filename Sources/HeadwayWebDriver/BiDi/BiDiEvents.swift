import Foundation
import Headway

// A BiDi session's events: its subscriptions (https://w3c.github.io/webdriver-bidi/#subscriptions),
// the connection they go to, and one reader of each window's `Page.events`, which turns what the
// page reports into the modules' events.
@EngineActor
final class BiDiEvents {
    // Every event Headway sends, by module.
    static let names: [String: [String]] = [
        "browsingContext": ["contextCreated", "contextDestroyed", "navigationStarted", "fragmentNavigated",
                            "load", "navigationFailed", "navigationAborted", "userPromptClosed",
                            "domContentLoaded", "fragmentNavigated", "userPromptOpened", "navigationCommitted",
                            "historyUpdated"],
        "log": ["entryAdded"],
        "input": ["fileDialogOpened"],
        "script": ["message", "realmCreated", "realmDestroyed"],
        "headway:load": ["measured", "filmstrip"],
        "headway:booster": ["prefetched", "served", "prerendered"],
        "network": ["beforeRequestSent", "responseStarted", "responseCompleted", "fetchError", "authRequired"],
    ]

    let subscriptions = BiDiSubscriptions()
    // The session's preload scripts.
    let preloads = BiDiPreloads()
    // Its intercepts, extra headers and cache behaviour, and the requests held for the client.
    let intercepts = BiDiIntercepts()
    // Its network data collectors and the bodies they took.
    let collectors = BiDiDataCollectors()
    // Each window's requests that were held, by the page's request id: the id they were
    // reported under then.
    var heldIDs: [String: [Int: String]] = [:]
    // How many documents each window has had: its realm's id counts them.
    private var documents: [String: Int] = [:]
    // The sandboxes each window's document has used, in order: their realms' ids number them.
    private var sandboxNames: [String: [String]] = [:]
    // The user context of each window not in "default", by handle.
    var userContexts: [String: String] = [:]
    // Each window's requests in flight whose responseStarted was sent, by the page's request id.
    var responded: [String: Set<Int>] = [:]
    // While intercepting, each window's requests WebKit reported that its page has not asked
    // about yet, and the other way round (see `PendingRequest`).
    var reported: [String: [PendingRequest]] = [:]
    var asked: [String: [PendingRequest]] = [:]
    var heldCount = 0
    // Each window's requests in flight by URL: their ids and navigations.
    var openIDs: [String: [URL: (id: String, navigation: String?)]] = [:]
    // Where events go: every WebSocket open on the session.
    private var sinks: [ObjectIdentifier: WebSocketSink] = [:]
    // Each window's reader, by handle.
    private var readers: [String: Task<Void, Never>] = [:]
    // The reader of the booster's reports.
    var boosterReader: Task<Void, Never>?
    // Each window's latest navigation id, which navigate's answer and the events share.
    private(set) var navigations: [String: String] = [:]
    // Each window's document request of its latest navigation, and the URL of one started whose
    // document request has not been sent yet.
    var documentRequests: [String: Int] = [:]
    var pendingDocuments: [String: URL] = [:]
    // Each window's navigation started and not yet committed (nor ended): its id and URL.
    private var uncommitted: [String: (String, URL?)] = [:]
    // Each window's navigation that failed or was aborted: WebKit's `load` after it is not its.
    private var ended: [String: String] = [:]
    // Each window's navigation WebKit cancelled a moment ago: aborted or failed, as what follows says.
    private var cancelled: [String: (String, URL?)] = [:]
    // Each window's URL: at watch, then as each commit and same-document navigation gives it.
    private var urls: [String: URL?] = [:]

    static func withoutFragment(_ url: URL) -> String {
        url.absoluteString.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0].description
    }

    // The event names `names` stands for: a module's name is all of its events.
    static func expand(_ names: [String]) throws(BiDiError) -> Set<String> {
        var events = Set<String>()
        for name in names {
            if let module = Self.names[name] {
                events.formUnion(module.map { "\(name).\($0)" })
                continue
            }
            let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
            guard parts.count == 2, Self.names[parts[0]]?.contains(parts[1]) == true else {
                throw BiDiError(.invalidArgument, "\"\(name)\" is not an event or module headway sends events of")
            }
            events.insert(name)
        }
        return events
    }

    func isSubscribed(_ method: String, context: String?) -> Bool {
        subscriptions.covers(method, context: context)
    }

    func attach(_ sink: WebSocketSink) { sinks[ObjectIdentifier(sink)] = sink }
    func detach(_ sink: WebSocketSink) {
        sinks[ObjectIdentifier(sink)] = nil
        // No client is left to decide for the requests held.
        if sinks.isEmpty { intercepts.releaseAll(of: nil) }
    }

    func emit(_ method: String, _ params: JSONValue, context: String?) {
        let covered = isSubscribed(method, context: context)
        guard covered ? !sinks.isEmpty : method == BiDiSubscriptions.bufferedEvent else { return }
        var params = params
        // Every event naming a user context (itself or in its `source`) names its window's, and
        // a `source` names the realm of the window's document now.
        if case .object(var fields) = params, let context {
            let userContext = userContexts[context].map(JSONValue.string)
            if let userContext, fields["userContext"] != nil { fields["userContext"] = userContext }
            if case .object(var source)? = fields["source"] {
                if let userContext, source["userContext"] != nil { source["userContext"] = userContext }
                if source["realm"] != nil, !context.contains("/") { source["realm"] = .string(realmID(of: context)) }
                fields["source"] = .object(source)
            }
            params = .object(fields)
        }
        let text = BiDiCommand.event(method, params)
        guard covered else { return subscriptions.missed(method, text: text, context: context) }
        send(text)
    }

    func send(_ text: String) {
        for sink in sinks.values { sink.send(text) }
    }

    // Reads `page`'s events from now on, as the window `handle`'s.
    func watch(_ page: Page, handle: String, session: Session) {
        watchBooster(session)
        guard readers[handle] == nil else { return }
        urls[handle] = page.url
        let userContext = session.userContext(of: page)
        if userContext != BiDiBrowser.defaultID { userContexts[handle] = userContext }
        preloads.windowOpened(page, handle: handle, userContext: userContext)
        intercepts.refresh(page, session: session, self)
        readers[handle] = Task { @EngineActor [weak self, weak session] in
            for await event in page.events {
                guard let self, let session else { return }
                self.handle(event, handle: handle, session: session)
            }
            // The page closed: what was kept for its window goes.
            self?.forget(handle)
        }
    }

    private func forget(_ handle: String) {
        readers[handle] = nil
        navigations[handle] = nil
        documentRequests[handle] = nil
        pendingDocuments[handle] = nil
        urls[handle] = nil
        uncommitted[handle] = nil
        ended[handle] = nil
        cancelled[handle] = nil
        heldIDs[handle] = nil
        responded[handle] = nil
        userContexts[handle] = nil
        documents[handle] = nil
        sandboxNames[handle] = nil
        reported[handle] = nil
        asked[handle] = nil
        openIDs[handle] = nil
        intercepts.releaseAll(of: handle)
        preloads.forget(handle)
        subscriptions.forget(handle)
    }

    // A window closed by a command (Close Window, browsingContext.close).
    func contextClosed(_ handle: String) {
        emit("browsingContext.contextDestroyed", destroyedInfo(handle), context: handle)
        realm(created: false, handle: handle, url: nil)
    }

    // A window's BrowsingContextInfo as contextDestroyed gives it: its last URL and its user context.
    private func destroyedInfo(_ handle: String) -> JSONValue {
        BiDiContexts.info(handle: handle, url: urls[handle] ?? nil,
                          userContext: userContexts[handle] ?? BiDiBrowser.defaultID)
    }

    // Whether a WebSocket is open on the session (a client listening for events uses it).
    var isListening: Bool { !sinks.isEmpty }

    static var now: JSONValue { .number((Date().timeIntervalSince1970 * 1000).rounded()) }

    enum Navigation { case started, committed, domContentLoaded, fragment, finished, failed, cancelled }

    // A navigation of the window `handle`'s page, as its delegate heard it.
    func navigated(_ what: Navigation, url: URL?, handle: String) {
        // The `load` WebKit gives the document still shown after a navigation failed or was
        // aborted is no load of that navigation.
        if what == .finished, let done = ended[handle], done == navigations[handle] { return }
        if what == .started {
            // One that had not committed yet (or that WebKit just cancelled) is aborted by this one.
            if let (navigation, old) = cancelled.removeValue(forKey: handle) ?? uncommitted[handle] {
                emit("browsingContext.navigationAborted", [
                    "context": .string(handle), "navigation": .string(navigation), "timestamp": Self.now,
                    "url": .string(old?.absoluteString ?? "about:blank"), "userContext": "default",
                ], context: handle)
            }
            navigations[handle] = UUID().uuidString.lowercased()
            pendingDocuments[handle] = url
            uncommitted[handle] = (navigations[handle]!, url)
        } else if what == .cancelled {
            // Aborted if another navigation starts at once (WebKit reports the cancel first); else
            // it failed (a blocked document, a stop), reported in a moment.
            guard let navigation = navigations[handle] else { return }
            uncommitted[handle] = nil
            ended[handle] = navigation
            cancelled[handle] = (navigation, url)
            let failed = params(url: url, navigation: navigation, handle: handle)
            Task { @EngineActor [weak self] in
                try? await Task.sleep(for: .milliseconds(150))
                guard let self, self.cancelled[handle]?.0 == navigation else { return }
                self.cancelled[handle] = nil
                self.emit("browsingContext.navigationFailed", failed, context: handle)
            }
            return
        } else if what != .fragment {
            uncommitted[handle] = nil
        }
        if what == .failed { ended[handle] = navigations[handle] }
        let params = params(url: url, navigation: navigations[handle], handle: handle)
        switch what {
        case .started: emit("browsingContext.navigationStarted", params, context: handle)
        case .committed:
            urls[handle] = url
            emit("browsingContext.navigationCommitted", params, context: handle)
            // The new document replaces the window's realm.
            realm(created: false, handle: handle, url: nil)
            realm(created: true, handle: handle, url: url)
        case .domContentLoaded: emit("browsingContext.domContentLoaded", params, context: handle)
        case .fragment: emit("browsingContext.fragmentNavigated", params, context: handle)
        case .finished: emit("browsingContext.load", params, context: handle)
        case .failed: emit("browsingContext.navigationFailed", params, context: handle)
        case .cancelled: break
        }
    }

    // A realm's origin: its document's, serialized; "null" for one that is opaque (about:blank,
    // data:, a file).
    nonisolated static func origin(of url: URL?) -> String {
        guard let url, let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = url.host else { return "null" }
        return "\(scheme)://\(host.contains(":") ? "[\(host)]" : host)" + (url.port.map { ":\($0)" } ?? "")
    }

    // The sandboxes the window's document has used, with their realms' ids.
    func sandboxes(of handle: String) -> [(name: String, realm: String)] {
        (sandboxNames[handle] ?? []).enumerated().map { ($0.element, realmID(of: handle) + "-sandbox-\($0.offset)") }
    }

    // The sandbox whose realm `realm` is, in the window's document now.
    func sandbox(ofRealm realm: String, handle: String) -> String? {
        sandboxes(of: handle).first { $0.realm == realm }?.name
    }

    // The realm of the sandbox `name` in the window `handle`'s document (sandboxes run in
    // top-level contexts only): numbered, and reported as created on its first use.
    func sandboxRealm(_ handle: String, _ name: String, url: URL?) -> String {
        if let known = sandboxes(of: handle).first(where: { $0.name == name })?.realm { return known }
        var names = sandboxNames[handle] ?? []
        names.append(name)
        sandboxNames[handle] = names
        let realm = realmID(of: handle) + "-sandbox-\(names.count - 1)"
        sandboxRealmCreated((name, realm), handle: handle, url: url)
        return realm
    }

    // realmCreated for a sandbox's realm in the window `handle`, whose document is at `url`.
    func sandboxRealmCreated(_ sandbox: (name: String, realm: String), handle: String, url: URL?) {
        emit("script.realmCreated", ["realm": .string(sandbox.realm), "origin": .string(Self.origin(of: url)),
                                     "type": "window", "context": .string(handle), "sandbox": .string(sandbox.name),
                                     "userContext": "default"], context: handle)
    }

    // The realm of the window `handle`'s document now: one per document, counted per window.
    func realmID(of handle: String) -> String {
        BiDiContexts.realm(of: handle) + "-\(documents[handle] ?? 0)"
    }

    // The window's realm was made for a new document at `url` (`isNew`; else it is reported
    // as one open now), or went with its document or window.
    func realm(created: Bool, handle: String, url: URL?, isNew: Bool = true) {
        if created, isNew { documents[handle, default: 0] += 1 }
        let realm = JSONValue.string(realmID(of: handle))
        guard created else {
            // The document's sandboxes go with it.
            for sandbox in sandboxes(of: handle) {
                emit("script.realmDestroyed", ["realm": .string(sandbox.realm)], context: handle)
            }
            sandboxNames[handle] = nil
            return emit("script.realmDestroyed", ["realm": realm], context: handle)
        }
        let origin = Self.origin(of: url)
        emit("script.realmCreated", ["realm": realm, "origin": .string(origin), "type": "window",
                                     "context": .string(handle), "userContext": "default"], context: handle)
    }

    // A context's document failed at the client's word (network.failRequest): its navigation failed.
    func documentFailed(_ url: URL, handle: String) {
        uncommitted[handle] = nil
        emit("browsingContext.navigationFailed", params(url: url, navigation: navigations[handle], handle: handle),
             context: handle)
    }

    private func params(url: URL?, navigation: String?, handle: String) -> JSONValue {
        [
            "context": .string(handle), "navigation": navigation.map(JSONValue.string) ?? .null,
            "timestamp": Self.now, "url": .string(url?.absoluteString ?? "about:blank"), "userContext": "default",
        ]
    }

    // The window navigated within its document (the library tells, before its state has the URL):
    // a fragment navigation, a navigation of its own, when only the fragment differs (or none);
    // else the page's history API (pushState, replaceState).
    func sameDocument(_ url: URL, handle: String) {
        let before = urls[handle] ?? nil
        urls[handle] = url
        if let before, Self.withoutFragment(before) == Self.withoutFragment(url) {
            navigations[handle] = UUID().uuidString.lowercased()
            navigated(.fragment, url: url, handle: handle)
        } else {
            emit("browsingContext.historyUpdated", ["context": .string(handle), "timestamp": Self.now,
                                                    "url": .string(url.absoluteString), "userContext": "default"],
                 context: handle)
        }
    }

    // A preload script's channel sent `data` ({channel, data: a remote value}).
    func channelMessage(_ data: JSONValue, handle: String) {
        guard let channel = data["channel"]?.stringValue else { return }
        emit("script.message", [
            "channel": .string(channel),
            // What a page posts may claim anything: its nodes get no sharedId.
            "data": BiDiRemoteValue.remote(data["data"] ?? ["type": "undefined"], context: ContextID(handle: handle),
                                           nodeKey: "", sharedIds: false),
            "source": ["realm": .string(realmID(of: handle)), "context": .string(handle)],
        ], context: handle)
    }

    // A user prompt held open for a command to answer.
    func promptOpened(_ dialog: JavaScriptDialog, handle: String, behavior: PromptBehavior) {
        var params: [String: JSONValue] = [
            "context": .string(handle), "message": .string(dialog.message),
            "type": .string(dialog.type == .beforeUnload ? "beforeunload" : dialog.type.rawValue),
            "handler": .string(behavior.bidiHandler),
        ]
        if let text = dialog.defaultText { params["defaultValue"] = .string(text) }
        emit("browsingContext.userPromptOpened", .object(params), context: handle)
    }

    func stop() {
        boosterReader?.cancel()
        for reader in readers.values { reader.cancel() }
        readers.removeAll()
        for sink in sinks.values { sink.close(.goingAway, reason: "the session ended") }
        sinks.removeAll()
    }

    private func handle(_ event: PageEvent, handle: String, session: Session) {
        let now = Self.now
        switch event {
        case .console(let message):
            emit("log.entryAdded", BiDiLog.console(message, context: handle, timestamp: now), context: handle)
        case .pageError(let error):
            emit("log.entryAdded", BiDiLog.error(error, context: handle, timestamp: now), context: handle)
        case .dialog(let dialog):
            // Reported once answered (by Headway's policy, or a command).
            var params: [String: JSONValue] = [
                "context": .string(handle),
                "type": .string(dialog.type == .beforeUnload ? "beforeunload" : dialog.type.rawValue),
            ]
            switch dialog.answer {
            case .bool(let accepted): params["accepted"] = .bool(accepted)
            case .string(let text): params["accepted"] = true; params["userText"] = .string(text)
            default: params["accepted"] = .bool(dialog.type == .alert)
            }
            emit("browsingContext.userPromptClosed", .object(params), context: handle)
        case .popup(let opened):
            session.syncWindows()
            if let openedHandle = session.handle(of: opened) {
                emit("browsingContext.contextCreated", BiDiContexts.info(
                    handle: openedHandle, url: opened.url, userContext: session.userContext(of: opened)),
                     context: openedHandle)
                realm(created: true, handle: openedHandle, url: opened.url)
            }
        case .closedByScript:
            emit("browsingContext.contextDestroyed", destroyedInfo(handle), context: handle)
            realm(created: false, handle: handle, url: nil)
            session.syncWindows()
        // Navigations come through the session's delegate (`navigated`, `sameDocument`), in order
        // with requests.
        case .state, .navigationStarted, .navigationFinished, .navigationFailed, .navigationRedirected,
             .navigationCommitted, .webProcessTerminated:
            break
        }
    }
}

extension PromptBehavior {
    // What userPromptOpened says will answer the prompt: the session's unhandledPromptBehavior.
    var bidiHandler: String {
        switch self {
        case .accept, .acceptAndNotify: "accept"
        case .dismiss, .dismissAndNotify: "dismiss"
        case .ignore: "ignore"
        }
    }
}
