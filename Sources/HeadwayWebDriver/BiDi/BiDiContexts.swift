import Foundation
import Headway

// The browsingContext module (https://w3c.github.io/webdriver-bidi/#module-browsingContext). A
// top-level context is a classic window: its id is the window handle. Frames are contexts too
// (BiDiFrames), for getTree, scripts and locateNodes.
@EngineActor
enum BiDiContexts {
    nonisolated static func realm(of context: String) -> String { "realm-" + context }

    // A BrowsingContextInfo: of the window `handle`, or of its frame `frame`; `parent` nil leaves
    // the field out (the spec gives it only for the contexts listed first); `children` nil is null,
    // as the events have it (a depth of 0).
    nonisolated static func info(handle: String, url: URL?, children: [JSONValue]? = nil,
                                 userContext: String = "default", frame: ContextID? = nil,
                                 parent: JSONValue? = .null) -> JSONValue {
        var info: [String: JSONValue] = [
            "context": .string(frame?.id ?? handle), "url": .string(url?.absoluteString ?? "about:blank"),
            "children": children.map(JSONValue.array) ?? .null, "userContext": .string(userContext),
            "originalOpener": .null, "clientWindow": .string(handle),
        ]
        info["parent"] = parent
        return .object(info)
    }

    static let handlers: [String: BiDiHandler] = [
        "browsingContext.getTree": { call in
            let depth = try call.optionalInteger("maxDepth", in: 0...9_007_199_254_740_991)
            call.session.syncWindows()
            var windows = call.session.windows
            if let root = try call.parameters.optionalString("root") {
                let (context, _) = try call.anyContext(root)
                if !context.isTopLevel { return ["contexts": [try await BiDiFrames.info(context, depth: depth, call)]] }
                windows = windows.filter { $0.handle == root }
            }
            var contexts: [JSONValue] = []
            for window in windows where !window.page.isClosed {
                let children = depth == 0 ? nil : await BiDiFrames.children(
                    of: ContextID(handle: window.handle), depth: depth, session: call.session)
                contexts.append(info(handle: window.handle, url: window.page.url, children: children,
                                     userContext: call.session.userContext(of: window.page)))
            }
            return ["contexts": .array(contexts)]
        },
        "browsingContext.activate": { call in
            _ = try call.context(frameError: .invalidArgument)
            return [:]
        },
        "browsingContext.create": { call in
            let type = try call.parameters.string("type")
            guard type == "tab" || type == "window" else {
                throw BiDiError(.invalidArgument, "\"type\" must be \"tab\" or \"window\", not \"\(type)\"")
            }
            _ = try call.parameters.optionalBool("background")
            // A new context without a user context goes in its reference context's.
            var referenced: String?
            if let reference = try call.parameters.optionalString("referenceContext") {
                referenced = call.session.userContext(of: try call.context(reference).1)
            }
            let userContext = try call.parameters.optionalString("userContext") ?? referenced ?? BiDiBrowser.defaultID
            try call.session.checkRoomForWindow()
            let page = try call.session.browser(ofUserContext: userContext).newPage()
            let handle = call.session.add(page, userContext: userContext)
            call.events.emit("browsingContext.contextCreated", info(handle: handle, url: nil, userContext: userContext),
                             context: handle)
            call.events.realm(created: true, handle: handle, url: nil)
            _ = try await page.load(URL(string: "about:blank")!, timeout: call.session.timeouts.pageLoadDuration)
            return ["context": .string(handle)]
        },
        "browsingContext.close": { call in
            let (handle, page) = try call.context(frameError: .invalidArgument)
            call.events.contextClosed(handle)
            page.close()
            call.session.syncWindows()
            return [:]
        },
        "browsingContext.navigate": { call in
            let text = try call.parameters.string("url")
            guard let url = URL(string: text), url.scheme != nil else {
                throw BiDiError(.invalidArgument, "\"\(text)\" is not an absolute URL")
            }
            if let frame = ContextID(try call.parameters.string("context")), !frame.isTopLevel {
                return try await BiDiFrames.navigate(frame, to: url, call)
            }
            let (handle, page) = try call.context(frameError: .unsupportedOperation)
            if url.scheme?.lowercased() == "javascript" {
                // Runs in the document, as HTML says, and starts no navigation of its own (one that
                // returns a string replaces the document): answered at once, with no navigation id.
                _ = try await page.callAsyncFunction("location.href = u", arguments: ["u": .string(text)],
                                                     timeout: call.session.timeouts.pageLoadDuration)
                return ["navigation": .null, "url": .string(page.url?.absoluteString ?? "about:blank")]
            }
            let result = try await call.navigate(page, wait: try call.wait()) { page, condition, timeout in
                try await call.session.load(url, in: page, until: condition, timeout: timeout)
            }
            return ["navigation": call.events.navigations[handle].map(JSONValue.string) ?? .null,
                    "url": .string(result?.url.absoluteString ?? page.url?.absoluteString ?? text)]
        },
        "browsingContext.reload": { call in
            _ = try call.parameters.optionalBool("ignoreCache")
            let (handle, page) = try call.context(frameError: .unsupportedOperation)
            let result = try await call.navigate(page, wait: try call.wait()) { page, _, timeout in
                try await page.reload(timeout: timeout)
            }
            return ["navigation": call.events.navigations[handle].map(JSONValue.string) ?? .null,
                    "url": .string(result?.url.absoluteString ?? page.url?.absoluteString ?? "about:blank")]
        },
        "browsingContext.traverseHistory": { call in
            let (_, page) = try call.context()
            guard let delta = call.parameters.body["delta"]?.integer(in: -1000...1000) else {
                throw BiDiError(.invalidArgument, "\"delta\" must be an integer")
            }
            // Checked before any step: a delta out of range leaves the page where it is.
            guard page.hasHistoryEntry(delta) else {
                throw BiDiError(.noSuchHistoryEntry, "no history entry \(delta) away")
            }
            for _ in 0..<abs(delta) {
                _ = try await call.navigate(page, wait: .load) { page, _, timeout in
                    try await (delta < 0 ? page.goBack(timeout: timeout) : page.goForward(timeout: timeout))
                }
            }
            return [:]
        },
        "browsingContext.setViewport": { call in
            let (_, page) = try call.context(frameError: .invalidArgument)
            let configuration = call.session.browser.configuration
            // The device pixel ratio is the process's (GTK's scale): it can only be asked for as it is.
            switch call.parameters.body["devicePixelRatio"] {
            case nil, .null?: break
            case .number(let ratio)? where ratio > 0 && ratio.isFinite:
                guard ratio == Double(configuration.deviceScaleFactor) else {
                    throw BiDiError(.unsupportedOperation, "headway's device pixel ratio is its process's GTK scale, "
                        + "\(configuration.deviceScaleFactor), not \(ratio)")
                }
            default:
                throw BiDiError(.invalidArgument, "\"devicePixelRatio\" must be a number greater than 0, or null")
            }
            let viewport: [String: JSONValue]
            switch call.parameters.body["viewport"] {
            case nil, .undefined?: return [:]  // left as it is
            case .null?:
                try await page.setViewportSize(width: configuration.viewportWidth, height: configuration.viewportHeight)
                return [:]
            case .object(let object)?: viewport = object
            default:
                throw BiDiError(.invalidArgument, "\"viewport\" must be an object with a width and a height, or null")
            }
            guard let width = viewport["width"]?.integer(in: Limits.viewportSide),
                  let height = viewport["height"]?.integer(in: Limits.viewportSide) else {
                throw BiDiError(.invalidArgument, "the viewport's width and height must be integers in "
                    + "\(Limits.viewportSide.lowerBound)...\(Limits.viewportSide.upperBound)")
            }
            try await page.setViewportSize(width: width, height: height)
            return [:]
        },
        "browsingContext.handleUserPrompt": { call in
            let (handle, page) = try call.context(frameError: .unsupportedOperation)
            let accept = try call.parameters.optionalBool("accept") ?? true
            let text = try call.parameters.optionalString("userText")
            guard page.openDialog != nil else {
                throw BiDiError(.noSuchAlert, "no user prompt is open in \(handle)")
            }
            try page.closeDialog(accept: accept, text: accept ? text : nil)
            return [:]
        },
    ]
}
