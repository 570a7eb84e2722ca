import Foundation
import Headway

// The browser module (https://w3c.github.io/webdriver-bidi/#module-browser). A user context is a
// browser of its own: "default" is the session's, and each createUserContext makes another with
// the session's configuration (its booster keeps no disk cache: that folder is the default
// one's), so its windows share no cookies, storage or cache with the others'. Closing one closes
// its windows.
@EngineActor
enum BiDiBrowser {
    static let defaultID = "default"
    // A session's user contexts besides "default".
    static let most = 32

    static let handlers: [String: BiDiHandler] = [
        "browser.getUserContexts": { call in
            let ids = [defaultID] + call.session.userContexts.map(\.id)
            return ["userContexts": .array(ids.map { ["userContext": .string($0)] })]
        },
        "browser.createUserContext": { call in
            for key in ["proxy", "acceptInsecureCerts", "unhandledPromptBehavior"]
            where (call.parameters.body[key] ?? .null) != .null {
                throw BiDiError(.unsupportedOperation, "a user context takes the session's settings: headway "
                    + "does not set \"\(key)\" for one")
            }
            guard call.session.userContexts.count < most else {
                throw BiDiError(.unsupportedOperation, "a session has at most \(most) user contexts besides "
                    + "\"default\": remove one first")
            }
            // Empty, as a new profile is: none of the session's starting cookies.
            var configuration = call.session.browser.configuration
            configuration.booster?.cacheDirectory = nil
            configuration.cookies = []
            let browser: Browser
            do { browser = try Browser(configuration: configuration) } catch {
                throw BiDiError(.unknownError, "the user context's browser did not start: \(error)")
            }
            let id = UUID().uuidString.lowercased()
            call.session.userContexts.append((id, browser))
            return ["userContext": .string(id)]
        },
        "browser.removeUserContext": { call in
            let id = try call.parameters.string("userContext")
            guard id != defaultID else {
                throw BiDiError(.invalidArgument, "the user context \"default\" cannot be removed")
            }
            let browser = try call.session.browser(ofUserContext: id)
            call.session.syncWindows()
            for window in call.session.windows where window.userContext == id {
                call.events.contextClosed(window.handle)
                window.page.close()
            }
            call.session.syncWindows()
            call.session.userContexts.removeAll { $0.id == id }
            browser.close()
            return [:]
        },
        "browser.getClientWindows": { call in
            call.session.syncWindows()
            return ["clientWindows": .array(call.session.windows.map { info($0, call.session) })]
        },
        // As the classic rect commands do it, in the window named.
        "browser.setClientWindowState": { call in
            let id = try call.parameters.string("clientWindow")
            call.session.syncWindows()
            guard let handle = call.session.windows.first(where: { $0.handle == id })?.handle else {
                throw BiDiError(.noSuchClientWindow, "no client window has the id \(id)")
            }
            let state = try call.parameters.string("state")
            guard let command: Command = ["maximized": .maximizeWindow, "minimized": .minimizeWindow,
                                          "fullscreen": .fullscreenWindow, "normal": .setWindowRect][state] else {
                throw BiDiError(.invalidArgument, "\"state\" must be normal, maximized, minimized or fullscreen")
            }
            let rect = ["width", "height", "x", "y"]
            let body = state == "normal" ? call.parameters.body.filter { rect.contains($0.key) } : [:]
            try await call.session.inContext(handle) {
                _ = try await Handlers.windowRects[command]?(call.session, CommandRequest(command: command, body: body))
            }
            guard let window = call.session.windows.first(where: { $0.handle == handle }) else {
                throw BiDiError(.noSuchClientWindow, "the window \(handle) closed")
            }
            return info(window, call.session)
        },
    ]

    private static func info(_ window: Session.Window, _ session: Session) -> JSONValue {
        let size = window.page.viewportSize
        return [
            "clientWindow": .string(window.handle), "state": .string(window.frame.state.rawValue),
            "x": .number(Double(window.frame.x)), "y": .number(Double(window.frame.y)),
            "width": .number(Double(size.width)), "height": .number(Double(size.height)),
            "active": .bool(window.handle == session.currentHandle),
        ]
    }
}

extension Session {
    // The user context of the window showing `page`.
    func userContext(of page: Page) -> String {
        windows.first { $0.page === page }?.userContext ?? BiDiBrowser.defaultID
    }

    // The user context of the window `handle`.
    func userContext(ofHandle handle: String) -> String {
        windows.first { $0.handle == handle }.map { userContext(of: $0.page) } ?? BiDiBrowser.defaultID
    }

    // The browser of the user context `id`.
    func browser(ofUserContext id: String) throws -> Browser {
        if id == BiDiBrowser.defaultID { return browser }
        guard let context = userContexts.first(where: { $0.id == id }) else {
            throw BiDiError(.noSuchUserContext, "no user context has the id \(id)")
        }
        return context.browser
    }
}

extension BiDiCall {
    // `params[key]`, a list of user contexts: nil when absent; else at least one, each known
    // (`no such user context`), and never with `contexts` (`invalid argument`).
    func userContextList(_ key: String) throws -> [String]? {
        guard let value = parameters.body[key], value != .null else { return nil }
        if let contexts = parameters.body["contexts"], contexts != .null {
            throw BiDiError(.invalidArgument, "name \"contexts\" or \"\(key)\", not both")
        }
        let invalid = BiDiError(.invalidArgument, "\"\(key)\" must be a non-empty list of user context ids")
        guard case .array(let items) = value, !items.isEmpty else { throw invalid }
        return try items.map { item in
            guard let id = item.stringValue else { throw invalid }
            _ = try session.browser(ofUserContext: id)
            return id
        }
    }
}
