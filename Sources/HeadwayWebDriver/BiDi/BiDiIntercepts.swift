import Foundation
import Headway

// The network module's interception (https://w3c.github.io/webdriver-bidi/#network-intercepts):
// the session's intercepts, its extra headers and cache behaviour, and the requests held for the
// client. A window's page holds its requests (`Page.setRequestInterceptor`) only while one of
// these applies to it; a held request that an intercept matches is reported blocked
// (`beforeRequestSent` with `isBlocked`) and waits for continueRequest, failRequest or
// provideResponse, at most `Limits.heldRequest`, then goes as it is.
@EngineActor
final class BiDiIntercepts {
    struct Intercept {
        let id: String
        // beforeRequestSent, authRequired, or both.
        let phases: Set<String>
        let patterns: [BiDiURLPattern]?
        let contexts: Set<String>?

        func matches(_ url: URL, phase: String, handle: String) -> Bool {
            phases.contains(phase) && (contexts?.contains(handle) ?? true)
                && (patterns.map { $0.contains { $0.matches(url) } } ?? true)
        }
    }

    // A challenge held for continueWithAuth (or continueResponse, failRequest).
    struct BlockedAuth {
        let handle: String
        let answer: CheckedContinuation<AuthAnswer, Never>
    }

    struct Blocked {
        let handle: String
        let url: URL
        let method: String
        let headers: [ResourceEntry.Header]
        // A document, the context's or a frame's: a navigation's request.
        let isDocument: Bool
        let decide: CheckedContinuation<HeldRequestDecision, Never>
    }

    private(set) var intercepts: [Intercept] = []
    // setExtraHeaders: for every context (nil key) or one.
    var extraHeaders: [String?: [ResourceEntry.Header]] = [:]
    // setCacheBehavior "bypass": every context (nil) or these.
    var bypassesCache: Set<String?> = []
    private var blocked: [String: Blocked] = [:]
    private var blockedAuth: [String: BlockedAuth] = [:]

    static let maxIntercepts = 1000
    static let maxBlocked = 10000

    func add(_ intercept: Intercept) throws(BiDiError) {
        guard intercepts.count < Self.maxIntercepts else {
            throw BiDiError(.invalidArgument, "the session has \(Self.maxIntercepts) intercepts: remove some first")
        }
        intercepts.append(intercept)
    }

    func remove(_ id: String) throws(BiDiError) {
        guard intercepts.contains(where: { $0.id == id }) else {
            throw BiDiError(.noSuchIntercept, "no intercept has the id \(id)")
        }
        intercepts.removeAll { $0.id == id }
    }

    // The key of a user context's extra headers (a context's is its handle, which has no space).
    static func key(userContext: String) -> String { "user-context " + userContext }

    // Whether the window `handle`'s requests need holding.
    func applies(to handle: String, userContext: String) -> Bool {
        intercepts.contains { $0.phases.contains("beforeRequestSent") && ($0.contexts?.contains(handle) ?? true) }
            || extraHeaders[nil] != nil || extraHeaders[handle] != nil
            || extraHeaders[Self.key(userContext: userContext)] != nil
            || bypassesCache.contains(nil) || bypassesCache.contains(handle)
    }

    // What the window `handle`'s page decides for a request it holds: the session's headers
    // added, then the client's decision when an intercept matches.
    func decide(_ held: HeldRequest, handle: String, events: BiDiEvents) async -> HeldRequestDecision {
        var headers = held.headers
        var changed = false
        var added = extraHeaders[nil] ?? []
        added += extraHeaders[Self.key(userContext: events.userContexts[handle] ?? BiDiBrowser.defaultID)] ?? []
        added += extraHeaders[handle] ?? []
        if bypassesCache.contains(nil) || bypassesCache.contains(handle) {
            added += [.init(name: "Cache-Control", value: "no-cache"), .init(name: "Pragma", value: "no-cache")]
        }
        for header in added {
            headers.removeAll { $0.name.caseInsensitiveCompare(header.name) == .orderedSame }
            headers.append(header)
            changed = true
        }
        let matching = intercepts.filter { $0.matches(held.url, phase: "beforeRequestSent", handle: handle) }
        let standing: HeldRequestDecision = changed ? .change(url: nil, headers: headers) : .proceed
        // Reported here, blocked or not: the page asks for every request while intercepting.
        let (id, navigation) = events.heldRequestID(held.url, held.method, handle: handle)
        // Only a client that hears of it could decide (the spec blocks for subscribed sessions).
        let blocks = !matching.isEmpty && events.isListening
            && events.isSubscribed("network.beforeRequestSent", context: handle) && blocked.count < Self.maxBlocked
        let report = BiDiNetwork.held(id: id, url: held.url, method: held.method, headers: headers, context: handle,
                                      navigation: navigation, intercepts: blocks ? matching.map(\.id) : nil)
        guard blocks else {
            events.emit("network.beforeRequestSent", report, context: handle)
            return standing
        }
        // Cancelled when the request's time is up (`Limits.heldRequest`): it went as it was.
        let decision: HeldRequestDecision = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<HeldRequestDecision, Never>) in
                guard !Task.isCancelled else { return continuation.resume(returning: .proceed) }
                blocked[id] = Blocked(handle: handle, url: held.url, method: held.method, headers: headers,
                                      isDocument: Self.isDocument(held, navigation: navigation),
                                      decide: continuation)
                events.emit("network.beforeRequestSent", report, context: handle)
            }
        } onCancel: {
            Task { @EngineActor [weak self] in self?.release(id, .proceed) }
        }
        if case .proceed = decision { return standing }
        return decision
    }

    // Whether a request is a navigation's: one navigate started, one WebKit marks as a document's
    // or a frame's (`Sec-Fetch-Dest`, sent to trustworthy origins), or one to the URL the page
    // has already taken (a navigation the page started itself).
    static func isDocument(_ held: HeldRequest, navigation: String?) -> Bool {
        // WebKit's word when it gives one (a page's own fetch of its URL is no document).
        if let destination = destination(held.headers) {
            return ["document", "iframe", "frame"].contains(destination)
        }
        return navigation != nil
            || (held.page.map(BiDiEvents.withoutFragment) == BiDiEvents.withoutFragment(held.url))
    }

    // A request's `Sec-Fetch-Dest`, lower-cased: what WebKit says it is for, when it says.
    static func destination(_ headers: [ResourceEntry.Header]) -> String? {
        headers.first { $0.name.lowercased() == "sec-fetch-dest" }?.value.lowercased()
    }

    // A challenge the window's request met: reported (authRequired), and held for the client
    // when an intercept in that phase matches and the client listens; else Headway's default.
    func authenticate(_ challenge: AuthChallenge, handle: String, events: BiDiEvents) async -> AuthAnswer {
        let matching = intercepts.filter { $0.matches(challenge.url, phase: "authRequired", handle: handle) }
        let (id, navigation) = events.openRequest(challenge.url, handle: handle)
        let blocks = !matching.isEmpty && events.isListening
            && events.isSubscribed("network.authRequired", context: handle) && blockedAuth.count < Self.maxBlocked
            && blockedAuth[id] == nil
        let report = BiDiNetwork.authRequired(id: id, challenge: challenge, context: handle, navigation: navigation,
                                              intercepts: blocks ? matching.map(\.id) : nil)
        guard blocks else {
            events.emit("network.authRequired", report, context: handle)
            return .default
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<AuthAnswer, Never>) in
                guard !Task.isCancelled else { return continuation.resume(returning: .default) }
                blockedAuth[id] = BlockedAuth(handle: handle, answer: continuation)
                events.emit("network.authRequired", report, context: handle)
            }
        } onCancel: {
            Task { @EngineActor [weak self] in self?.answer(id, .default) }
        }
    }

    // Whether the client's request is a challenge held still.
    func isBlockedAuth(_ id: String) -> Bool { blockedAuth[id] != nil }

    // The client's answer to a held challenge.
    func answer(_ id: String, _ answer: AuthAnswer) {
        blockedAuth.removeValue(forKey: id)?.answer.resume(returning: answer)
    }

    // The request the client names, held still.
    func blocked(_ id: String) throws(BiDiError) -> Blocked {
        guard let request = blocked[id] else {
            throw BiDiError(.noSuchRequest, "no request blocked in an intercept has the id \(id)")
        }
        return request
    }

    // The client's decision for a blocked request: it goes on.
    func release(_ id: String, _ decision: HeldRequestDecision) {
        blocked.removeValue(forKey: id)?.decide.resume(returning: decision)
    }

    // The window closed, or the session ends: its requests held still go as they are.
    func releaseAll(of handle: String?) {
        for (id, request) in blocked where handle == nil || request.handle == handle {
            release(id, .proceed)
        }
        for (id, challenge) in blockedAuth where handle == nil || challenge.handle == handle {
            answer(id, .default)
        }
    }

}

extension BiDiIntercepts {
    // Gives each window of the session's pages an interceptor while one of these applies to it.
    func refresh(_ session: Session, _ events: BiDiEvents) {
        session.syncWindows()
        for window in session.windows where !window.page.isClosed {
            refresh(window.page, session: session, events)
        }
    }

    // The interceptor asks which window the request's page is (a popup starts with its
    // opener's interceptor, and is a window of its own).
    func refresh(_ page: Page, session: Session, _ events: BiDiEvents) {
        // Challenges are always reported; held only for an intercept in the authRequired phase.
        try? page.setAuthenticationHandler { [weak self, weak events, weak session] page, challenge in
            guard let self, let events, let session, let handle = session.handle(of: page) else { return .default }
            return await self.authenticate(challenge, handle: handle, events: events)
        }
        guard let handle = session.handle(of: page),
              applies(to: handle, userContext: session.userContext(ofHandle: handle)) else {
            try? page.setRequestInterceptor(nil)
            return
        }
        try? page.setRequestInterceptor { [weak self, weak events, weak session] page, held in
            guard let self, let events, let session else { return .proceed }
            session.syncWindows()
            guard let handle = session.handle(of: page),
                  self.applies(to: handle, userContext: session.userContext(ofHandle: handle)) else { return .proceed }
            return await self.decide(held, handle: handle, events: events)
        }
    }
}

// A URL pattern of addIntercept (https://w3c.github.io/webdriver-bidi/#type-network-UrlPattern):
// a whole URL, or the parts given, each of which must equal the URL's.
struct BiDiURLPattern {
    var url: String?
    var scheme: String?
    var host: String?
    var port: String?
    var path: String?
    var query: String?

    init(_ value: JSONValue) throws(BiDiError) {
        guard case .object(let fields) = value, let type = fields["type"]?.stringValue else {
            throw BiDiError(.invalidArgument, "a URL pattern must be {\"type\": \"string\" or \"pattern\", ...}")
        }
        // A pattern's part: special characters are escaped with a backslash, as the spec says
        // (Headway matches no wildcards: an unescaped one is refused, never silently unmatched).
        func part(_ key: String) throws(BiDiError) -> String? {
            guard let value = fields[key], value != .null else { return nil }
            guard let text = value.stringValue else { throw BiDiError(.invalidArgument, "\"\(key)\" must be a string") }
            var plain = ""
            var escaped = false
            for character in text {
                if escaped {
                    plain.append(character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if "*(){}".contains(character) {
                    throw BiDiError(.invalidArgument, "\"\(key)\" has an unescaped \(character): "
                        + "URL patterns are literal "
                        + "(escape it with a backslash)")
                } else {
                    plain.append(character)
                }
            }
            guard !escaped else { throw BiDiError(.invalidArgument, "\"\(key)\" ends with a lone backslash") }
            return plain
        }
        switch type {
        case "string":
            guard let text = try part("pattern"), let parsed = URL(string: text), parsed.scheme != nil else {
                throw BiDiError(.invalidArgument, "a string URL pattern needs a \"pattern\" that is a URL")
            }
            url = Self.normalized(parsed)
        case "pattern":
            scheme = try part("protocol").map { given in
                let lower = given.lowercased()
                return lower.hasSuffix(":") ? String(lower.dropLast()) : lower
            }
            host = try part("hostname")?.lowercased()
            port = try part("port")
            path = try part("pathname").map { $0.hasPrefix("/") ? $0 : "/" + $0 }
            query = try part("search").map { $0.hasPrefix("?") ? String($0.dropFirst()) : $0 }
            if let scheme, scheme.isEmpty || !scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) {
                throw BiDiError(.invalidArgument, "\"protocol\" must be a URL scheme, not \(scheme)")
            }
            if let port, !(port.isEmpty || UInt16(port) != nil) {
                throw BiDiError(.invalidArgument, "\"port\" must be a port number, not \(port)")
            }
        default:
            throw BiDiError(.invalidArgument, "a URL pattern's \"type\" must be string or pattern, not \(type)")
        }
    }

    func matches(_ target: URL) -> Bool {
        if let url { return url == Self.normalized(target) }
        if let scheme, target.scheme?.lowercased() != scheme { return false }
        if let host, target.host?.lowercased() != host { return false }
        if let port {
            let defaults = ["http": 80, "https": 443, "ws": 80, "wss": 443]
            let actual = target.port.flatMap { $0 == defaults[target.scheme?.lowercased() ?? ""] ? nil : $0 }
            if port != (actual.map(String.init) ?? "") { return false }
        }
        let parts = URLComponents(url: target, resolvingAgainstBaseURL: false)
        let targetPath = parts?.percentEncodedPath ?? target.path
        if let path, (targetPath.isEmpty ? "/" : targetPath) != path { return false }
        if let query, (parts?.percentEncodedQuery ?? "") != query { return false }
        return true
    }

    // A URL as the spec compares it: no fragment, an empty path as "/", the default port left out.
    private static func normalized(_ url: URL) -> String {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.absoluteString }
        parts.fragment = nil
        parts.scheme = parts.scheme?.lowercased()
        parts.host = parts.host?.lowercased()
        if parts.percentEncodedPath.isEmpty, parts.host != nil { parts.percentEncodedPath = "/" }
        let defaults = ["http": 80, "https": 443, "ws": 80, "wss": 443]
        if let port = parts.port, port == defaults[parts.scheme ?? ""] { parts.port = nil }
        return parts.string ?? url.absoluteString
    }
}
