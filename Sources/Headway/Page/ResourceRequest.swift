import CWebKit
public import Foundation

/// One request of a page as WebKit reported it: when it was sent, and, once it ended, its
/// response or failure. `NavigationDelegate.page(_:didSendRequest:)`,
/// `page(_:didReceiveResponse:)` and `page(_:didEndRequest:)` report it; the same figures go into
/// the load's resource entries.
public struct ResourceRequest: Sendable, Equatable {
    /// The response, as far as WebKit knows it: from its headers' arrival, and when the request ends.
    public struct Response: Sendable, Equatable {
        /// The HTTP status (0 when the scheme has none).
        public var status: Int
        /// The response's headers.
        public var headers: [ResourceEntry.Header]
        /// Its MIME type, or "".
        public var mimeType: String
        /// The body's length as the response announced it, or 0.
        public var contentLength: Int
    }

    /// Unique within the page, counting up from 1.
    public var id: Int
    /// The URL requested (a booster's mirror URL given as the real one).
    public var url: URL
    /// The HTTP method.
    public var method: String
    /// The request's headers as WebKit sent them.
    public var headers: [ResourceEntry.Header]
    /// When it was sent.
    public var sent: Date
    /// When its response's headers arrived; nil before, and when WebKit reported none before its end.
    public var responded: Date?
    /// When it ended; nil while in flight.
    public var ended: Date?
    /// The response, once its headers arrived.
    public var response: Response?
    /// Why it failed, once it failed.
    public var failure: String?
    /// Whether the booster answered it from its prefetch cache (known once its response began, in
    /// a load Headway started; false during a navigation the page started itself).
    public var fromPrefetchCache = false
}

extension Page {
    // A request starts: reported and kept until it ends.
    func requestSent(_ resource: UInt, url: URL, method: String, headers: [ResourceEntry.Header]) {
        requestCount += 1
        let request = ResourceRequest(id: requestCount, url: url, method: method, headers: headers, sent: Date())
        // At most keptRecords at once: should WebKit leave that many unended, the older half goes
        // (their ends are not reported), so later requests still are.
        if openRequests.count >= NetworkActivity.keptRecords {
            let oldest = openRequests.sorted { $0.value.id < $1.value.id }.prefix(NetworkActivity.keptRecords / 2)
            for (key, _) in oldest { openRequests[key] = nil }
        }
        openRequests[resource] = request
        chain.page(self, didSendRequest: request)
    }

    // Whether the booster's cache answered `url` in this load. Its notes are reset when Headway
    // starts a navigation; during one the page started itself they may be the last load's, so
    // nothing is said then.
    private func answeredFromCache(_ url: URL) -> Bool {
        tracker.current?.requested != nil && pageBooster?.cacheHits.contains(url) == true
    }

    // Its response's headers arrived: reported once, the body still to come.
    func requestResponded(_ resource: UInt, response: ResourceRequest.Response) {
        guard var request = openRequests[resource], request.response == nil else { return }
        request.response = response
        request.responded = Date()
        request.fromPrefetchCache = answeredFromCache(request.url)
        openRequests[resource] = request
        chain.page(self, didReceiveResponse: request)
    }

    func requestEnded(_ key: UInt, response: ResourceRequest.Response?, failure: String?,
                      resource: UnsafeMutablePointer<WebKitWebResource>) {
        guard var request = openRequests.removeValue(forKey: key) else { return }
        if failure == nil, response != nil {
            if endedResources.count >= Self.keptBodies { endedResources.removeFirst() }
            endedResources.append((request.id, GObjectRef(retaining: resource)))
        }
        request.ended = Date()
        request.response = response ?? request.response
        request.failure = failure
        request.fromPrefetchCache = request.fromPrefetchCache || answeredFromCache(request.url)
        chain.page(self, didEndRequest: request)
    }
}
