import Foundation
import Headway

// The network module's events (https://w3c.github.io/webdriver-bidi/#module-network), from
// WebKit's resource signals as `NavigationDelegate` reports them: beforeRequestSent when a
// request is sent, responseStarted and responseCompleted once it ended with a response (WebKit
// reports the response with its end), fetchError once it failed. The timings are the wall-clock
// instants WebKit gives (sent, ended), in ms since 1970; the phases between them (DNS, connect,
// TLS) are in /headway/har, from the page's Resource Timing.
enum BiDiNetwork {
    static func sent(_ request: ResourceRequest, context: String, navigation: String?) -> JSONValue {
        var params = base(request, context: context, navigation: navigation)
        params["initiator"] = ["type": "other"]
        return .object(params)
    }

    static func ended(_ request: ResourceRequest, context: String, navigation: String?) -> [(String, JSONValue)] {
        var params = base(request, context: context, navigation: navigation)
        guard let response = request.response, request.failure == nil else {
            params["errorText"] = .string(request.failure ?? "the request failed")
            return [("network.fetchError", .object(params))]
        }
        let size = JSONValue.number(Double(response.contentLength))
        params["response"] = [
            "url": .string(request.url.absoluteString), "protocol": "", "status": .number(Double(response.status)),
            "statusText": "", "fromCache": false, "headers": headers(response.headers),
            "mimeType": .string(response.mimeType), "bytesReceived": size, "headersSize": .null, "bodySize": size,
            "content": ["size": size],
        ]
        return [("network.responseStarted", .object(params)), ("network.responseCompleted", .object(params))]
    }

    private static func base(_ request: ResourceRequest, context: String, navigation: String?) -> [String: JSONValue] {
        let sent = milliseconds(request.sent)
        let ended = request.ended.map(milliseconds) ?? 0
        let timings: JSONValue = [
            "timeOrigin": 0, "requestTime": .number(sent), "redirectStart": 0, "redirectEnd": 0,
            "fetchStart": .number(sent), "dnsStart": 0, "dnsEnd": 0, "connectStart": 0, "connectEnd": 0,
            "tlsStart": 0, "requestStart": .number(sent), "responseStart": .number(ended),
            "responseEnd": .number(ended),
        ]
        return [
            "context": .string(context), "isBlocked": false, "navigation": navigation.map(JSONValue.string) ?? .null,
            "redirectCount": 0, "userContext": "default", "timestamp": .number(request.ended.map(milliseconds) ?? sent),
            "request": [
                "request": .string("\(context)-\(request.id)"), "url": .string(request.url.absoluteString),
                "method": .string(request.method), "headers": headers(request.headers), "cookies": [],
                "headersSize": .number(Double(request.headers.reduce(0) {
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

extension BiDiEvents {
    func requestSent(_ request: ResourceRequest, page: Page, session: Session) {
        guard let handle = session.handle(of: page) else { return }
        if let url = pendingDocuments[handle], url == request.url {
            pendingDocuments[handle] = nil
            documentRequests[handle] = request.id
        }
        let params = BiDiNetwork.sent(request, context: handle, navigation: navigation(handle, request))
        emit("network.beforeRequestSent", params, context: handle)
    }

    func requestEnded(_ request: ResourceRequest, page: Page, session: Session) {
        guard let handle = session.handle(of: page) else { return }
        for (method, params) in BiDiNetwork.ended(request, context: handle, navigation: navigation(handle, request)) {
            emit(method, params, context: handle)
        }
    }

    // The navigation a document's request belongs to (the page's URL is the request's).
    private func navigation(_ handle: String, _ request: ResourceRequest) -> String? {
        request.id == documentRequests[handle] ? navigations[handle] : nil
    }
}
