import Foundation
import Headway

// The network module's events (https://w3c.github.io/webdriver-bidi/#module-network), from
// WebKit's resource signals as `NavigationDelegate` reports them: beforeRequestSent when a
// request is sent, responseStarted when its response's headers arrive (or with its end, should
// WebKit report none before), responseCompleted once it ended with a response, fetchError once
// it failed. The timings are the wall-clock
// instants WebKit gives (sent, ended), in ms since 1970; the phases between them (DNS, connect,
// TLS) are in /headway/har, from the page's Resource Timing.
enum BiDiNetwork {
    static func sent(_ request: ResourceRequest, id: String, context: String, navigation: String?) -> JSONValue {
        var params = base(request, id: id, context: context, navigation: navigation)
        params["initiator"] = ["type": "other"]
        return .object(params)
    }

    static func ended(_ request: ResourceRequest, id: String, context: String, navigation: String?,
                      started: Bool) -> [(String, JSONValue)] {
        guard request.response != nil, request.failure == nil else {
            var params = base(request, id: id, context: context, navigation: navigation)
            params["errorText"] = .string(request.failure ?? "the request failed")
            return [("network.fetchError", .object(params))]
        }
        let completed = ("network.responseCompleted", responded(request, id: id, context: context,
                                                                 navigation: navigation))
        if started { return [completed] }
        var early = request
        early.responded = request.responded ?? request.ended
        early.ended = nil
        return [("network.responseStarted", responded(early, id: id, context: context, navigation: navigation)),
                completed]
    }

    // responseStarted (the request in flight) or responseCompleted (ended) for a request with a
    // response.
    static func responded(_ request: ResourceRequest, id: String, context: String, navigation: String?) -> JSONValue {
        var params = base(request, id: id, context: context, navigation: navigation)
        guard let response = request.response else { return .object(params) }
        let size = JSONValue.number(Double(response.contentLength))
        params["response"] = [
            "url": .string(request.url.absoluteString), "protocol": "", "status": .number(Double(response.status)),
            "statusText": "", "fromCache": .bool(request.fromPrefetchCache), "headers": headers(response.headers),
            "mimeType": .string(response.mimeType), "bytesReceived": size, "headersSize": .null, "bodySize": size,
            "content": ["size": size],
        ]
        return .object(params)
    }

    // A request a page asked about while intercepting: beforeRequestSent, with `isBlocked` and the
    // intercepts that matched it when they block it.
    static func held(id: String, url: URL, method: String, headers: [ResourceEntry.Header], context: String,
                     navigation: String?, intercepts: [String]?) -> JSONValue {
        var params = base(url: url, method: method, headers: headers, sent: Date(), ended: nil, id: id,
                          context: context, navigation: navigation)
        if let intercepts {
            params["isBlocked"] = true
            params["intercepts"] = .array(intercepts.map(JSONValue.string))
        }
        params["initiator"] = ["type": "other"]
        return .object(params)
    }

    // A challenge a request met: authRequired with the 401 (or 407) response and its challenge,
    // `isBlocked` with the intercepts that matched when they block it.
    static func authRequired(id: String, challenge: AuthChallenge, context: String, navigation: String?,
                             intercepts: [String]?) -> JSONValue {
        var params = base(url: challenge.url, method: "GET", headers: [], sent: Date(), ended: nil, id: id,
                          context: context, navigation: navigation)
        if let intercepts {
            params["isBlocked"] = true
            params["intercepts"] = .array(intercepts.map(JSONValue.string))
        }
        let status = challenge.isProxy ? 407 : 401
        let challengeJSON: [String: JSONValue] = [
            "scheme": .string(challenge.scheme), "realm": .string(challenge.realm),
        ]
        params["response"] = [
            "url": .string(challenge.url.absoluteString), "protocol": "", "status": .number(Double(status)),
            "statusText": .string(challenge.isProxy ? "Proxy Authentication Required" : "Unauthorized"),
            "fromCache": false, "headers": [], "mimeType": "", "bytesReceived": 0, "headersSize": .null,
            "bodySize": .null, "content": ["size": 0], "authChallenges": [.object(challengeJSON)],
        ]
        return .object(params)
    }

    private static func base(_ request: ResourceRequest, id: String, context: String, navigation: String?)
        -> [String: JSONValue] {
        base(url: request.url, method: request.method, headers: request.headers, sent: request.sent,
             responded: request.responded ?? request.ended, ended: request.ended, id: id, context: context,
             navigation: navigation)
    }

    private static func base(url: URL, method: String, headers requestHeaders: [ResourceEntry.Header], sent: Date,
                             responded: Date? = nil, ended: Date?, id: String, context: String, navigation: String?)
        -> [String: JSONValue] {
        let sentAt = milliseconds(sent)
        let respondedAt = responded.map(milliseconds) ?? 0
        let endedAt = ended.map(milliseconds) ?? 0
        let timings: JSONValue = [
            "timeOrigin": 0, "requestTime": .number(sentAt), "redirectStart": 0, "redirectEnd": 0,
            "fetchStart": .number(sentAt), "dnsStart": 0, "dnsEnd": 0, "connectStart": 0, "connectEnd": 0,
            "tlsStart": 0, "requestStart": .number(sentAt), "responseStart": .number(respondedAt),
            "responseEnd": .number(endedAt),
        ]
        return [
            "context": .string(context), "isBlocked": false, "navigation": navigation.map(JSONValue.string) ?? .null,
            "redirectCount": 0, "userContext": "default", "timestamp": .number(ended.map(milliseconds) ?? sentAt),
            "request": [
                "request": .string(id), "url": .string(url.absoluteString),
                "method": .string(method), "headers": headers(requestHeaders), "cookies": [],
                "headersSize": .number(Double(requestHeaders.reduce(0) {
                    $0 + $1.name.utf8.count + $1.value.utf8.count + 4
                })),
                "bodySize": .null, "destination": "", "initiatorType": .null, "timings": timings,
            ],
        ]
    }

    private static func headers(_ headers: [ResourceEntry.Header]) -> JSONValue {
        .array(headers.map { ["name": .string($0.name), "value": ["type": "string", "value": .string($0.value)]] })
    }

    private static func milliseconds(_ date: Date) -> Double { (date.timeIntervalSince1970 * 1000).rounded() }
}

// While a window's page intercepts, it asks about each request (`BiDiIntercepts.decide`), and
// beforeRequestSent is reported from there, blocked or not, under the id of WebKit's report of
// the same request. The two come in either order: each waits in a queue for the other, matched by
// URL and method. A report no question matches within a second is sent as it is.
struct PendingRequest {
    var url: URL
    var method: String
    var id: String
    var navigation: String?
    var report: JSONValue?
    var since = Date()
}

extension BiDiEvents {
    func requestSent(_ request: ResourceRequest, page: Page, session: Session) {
        guard let handle = session.handle(of: page) else { return }
        if let url = pendingDocuments[handle], url == request.url {
            pendingDocuments[handle] = nil
            documentRequests[handle] = request.id
        }
        let navigation = navigation(handle, request)
        if let index = asked[handle]?.firstIndex(where: { $0.url == request.url && $0.method == request.method }) {
            let question = asked[handle]!.remove(at: index)
            heldIDs[handle, default: [:]][request.id] = question.id
            noteOpen(request.url, id: question.id, navigation: navigation, handle: handle)
            return
        }
        let id = "\(handle)-\(request.id)"
        noteOpen(request.url, id: id, navigation: navigation, handle: handle)
        let params = BiDiNetwork.sent(request, id: id, context: handle, navigation: navigation)
        guard intercepts.applies(to: handle, userContext: session.userContext(ofHandle: handle)) else {
            emit("network.beforeRequestSent", params, context: handle)
            return
        }
        var list = reported[handle] ?? []
        if list.count >= 256 { flush(list.removeFirst(), handle) }
        list.append(PendingRequest(url: request.url, method: request.method, id: id, navigation: navigation,
                                   report: params))
        reported[handle] = list
        Task { @EngineActor [weak self] in
            try? await Task.sleep(for: .seconds(1))
            self?.flushReported(handle, olderThan: 1)
        }
    }

    func responseStarted(_ request: ResourceRequest, page: Page, session: Session) {
        guard let handle = session.handle(of: page) else { return }
        let id = heldIDs[handle]?[request.id] ?? "\(handle)-\(request.id)"
        if let index = reported[handle]?.firstIndex(where: { $0.id == id }) {
            flush(reported[handle]!.remove(at: index), handle)
        }
        var started = responded[handle] ?? []
        if started.count >= 10_000 { started.removeAll() }
        started.insert(request.id)
        responded[handle] = started
        emit("network.responseStarted", BiDiNetwork.responded(request, id: id, context: handle,
                                                              navigation: navigation(handle, request)),
             context: handle)
    }

    func requestEnded(_ request: ResourceRequest, page: Page, session: Session) {
        guard let handle = session.handle(of: page) else { return }
        let id = heldIDs[handle]?.removeValue(forKey: request.id) ?? "\(handle)-\(request.id)"
        let started = responded[handle]?.remove(request.id) != nil
        if openIDs[handle]?[request.url]?.id == id { openIDs[handle]?[request.url] = nil }
        if let index = reported[handle]?.firstIndex(where: { $0.id == id }) {
            flush(reported[handle]!.remove(at: index), handle)
        }
        for (method, params) in BiDiNetwork.ended(request, id: id, context: handle,
                                                  navigation: navigation(handle, request), started: started) {
            emit(method, params, context: handle)
        }
        if request.response != nil, request.failure == nil {
            collectors.ended(request, id: id, page: page, handle: handle,
                             userContext: session.userContext(ofHandle: handle))
        }
        if request.fromPrefetchCache, request.failure == nil {
            served(request, id: id, handle: handle, navigation: navigation(handle, request))
        }
    }

    // The window's requests in flight, by URL, for an authRequired event (WebKit names the URL
    // challenged, not the request).
    private func noteOpen(_ url: URL, id: String, navigation: String?, handle: String) {
        var open = openIDs[handle] ?? [:]
        if open.count >= 1000 { open.removeAll() }
        open[url] = (id, navigation)
        openIDs[handle] = open
    }

    // The id and navigation of the request to `url` in flight in the window, or new ones.
    func openRequest(_ url: URL, handle: String) -> (String, String?) {
        if let open = openIDs[handle]?[url] { return (open.id, open.navigation) }
        heldCount += 1
        return ("\(handle)-held-\(heldCount)", nil)
    }

    // The id and navigation of a request the window's page asks about: those of WebKit's report
    // of it, or new ones that report will take.
    func heldRequestID(_ url: URL, _ method: String, handle: String) -> (String, String?) {
        if let index = reported[handle]?.firstIndex(where: { $0.url == url && $0.method == method }) {
            let report = reported[handle]!.remove(at: index)
            return (report.id, report.navigation)
        }
        heldCount += 1
        let id = "\(handle)-held-\(heldCount)"
        var list = asked[handle] ?? []
        if list.count >= 256 { list.removeFirst() }
        list.append(PendingRequest(url: url, method: method, id: id,
                                   navigation: pendingDocuments[handle] == url ? navigations[handle] : nil))
        asked[handle] = list
        return (id, list.last?.navigation)
    }

    private func flushReported(_ handle: String, olderThan seconds: Double) {
        let now = Date()
        while let first = reported[handle]?.first, now.timeIntervalSince(first.since) >= seconds {
            reported[handle]!.removeFirst()
            flush(first, handle)
        }
    }

    private func flush(_ pending: PendingRequest, _ handle: String) {
        if let report = pending.report { emit("network.beforeRequestSent", report, context: handle) }
    }

    // The navigation a document's request belongs to (the page's URL is the request's).
    private func navigation(_ handle: String, _ request: ResourceRequest) -> String? {
        request.id == documentRequests[handle] ? navigations[handle] : nil
    }
}
