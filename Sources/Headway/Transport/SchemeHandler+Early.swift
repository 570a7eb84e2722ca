import CWebKit
import Foundation

// Main documents fetched early (see `EarlyDocument`): started when a typed navigation begins,
// taken by the main-frame request WebKit makes for them once its web process is ready.
extension SchemeHandler {
    // The headers WebKit's request for a typed top-level navigation carries on the mirror
    // schemes (its User-Agent is the session's), completed as `handle` completes every request's.
    var navigationHeaders: HeaderList {
        client.browserHeaders.completing([("Accept", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"),
                                          ("Upgrade-Insecure-Requests", "1"),
                                          ("User-Agent", String(cString: soup_session_get_user_agent(client.session)))])
    }

    // Early documents kept at once; starting another drops the oldest.
    static let earlyLimit = 8

    // Starts fetching the document at `url` (real, http or https) unless the cache has it or a
    // fetch of it is under way. `page` is the navigating page's, whose next navigation drops it.
    func fetchEarly(_ url: URL, page: PageBooster?) {
        let key = EarlyDocument.key(url)
        let headers = navigationHeaders
        // A stale entry is revalidated by the handler: fetching it whole would be a second request.
        guard ["http", "https"].contains(key.scheme?.lowercased() ?? ""), early[key] == nil,
              cache.fetchInFlight(key) == nil,
              cache.lookup(key, requestHeaders: client.outgoingHeaders(headers, to: key), use: false) == nil
        else { return }
        if early.count >= Self.earlyLimit, let oldest = early.values.min(by: { $0.started < $1.started }) {
            dropEarly(oldest)
        }
        let bound = BoundedRequest(timeout: Self.requestTimeout + (conditions?.latency ?? .zero).clamped)
        let document = EarlyDocument(url: key, headers: headers, page: page, bound: bound) { [weak self] in
            guard let self, let document = self.early[key] else { return }
            self.dropEarly(document)
        }
        early[key] = document
        document.fetch = Task { @EngineActor [weak self, weak document] in
            guard let self, let document else { return }
            document.result = await self.fetchEarly(document)
        }
    }

    // The early document's response, or nil when the cache has it after all or it was cancelled.
    private func fetchEarly(_ document: EarlyDocument) async -> Result<SoupClient.Response, any Error>? {
        let (key, headers, bound) = (document.url, document.headers, document.bound)
        do {
            if let disk = cache.disk,
               let found = await disk.lookup(key, requestHeaders: client.outgoingHeaders(headers, to: key)) {
                // The handler answers from the cache, or revalidates, as without an early fetch.
                cache.insert(found, under: key)
                return nil
            }
            if let latency = conditions?.latency, latency > .zero { await emulateLatency(latency, bound) }
            guard !bound.isCancelled else { return nil }
            return .success(
                try await client.send(
                    method: "GET",
                    url: key,
                    headers: headers,
                    body: nil,
                    followRedirects: false,
                    holdingCookies: true,
                    cancellable: bound.pointer
                )
            )
        } catch {
            return bound.isCancelled && !bound.timedOut ? nil : .failure(error)
        }
    }

    // Drops the early documents a page's navigations started (it is starting another).
    func dropEarly(startedBy page: PageBooster) {
        for document in early.values where document.page === page { dropEarly(document) }
    }

    // Drops every early document (a cold start, or the browser closing).
    func dropAllEarly() {
        for document in early.values { dropEarly(document) }
    }

    // Drops the early document of `url`, which the cache answered.
    func discardEarly(_ url: URL) {
        if let document = early[EarlyDocument.key(url)] { dropEarly(document) }
    }

    private func dropEarly(_ document: EarlyDocument) {
        document.cancel()
        if early[document.url] === document { early[document.url] = nil }
    }

    // Answers `exchange`, a main-frame GET, with the early document of its URL when there is one
    // for the same headers. Returns false when the request must be fetched as usual: no early
    // document (or one for other headers, which is dropped), or one the disk cache had.
    func answerEarly(_ exchange: Exchange, _ bound: BoundedRequest) async -> Bool {
        guard let document = early.removeValue(forKey: EarlyDocument.key(exchange.url)) else { return false }
        guard document.matches(exchange.headers), let fetch = document.fetch else {
            document.cancel()
            return false
        }
        document.taken()
        // Until its headers come, the page's stop or next navigation cancels it, as its own fetch.
        exchange.page?.opened(document.bound, isMainFrame: true)
        await fetch.value
        exchange.page?.closed(document.bound)
        switch document.result {
        case nil:
            return isAbandoned(bound)
        case .failure(let error)?:
            guard !isAbandoned(bound) else { return true }
            fail(exchange.request, document.bound.timedOut
                 ? document.bound.timeoutError(exchange.url)
                 : error as? HeadwayError ?? HeadwayError(.loadFailed, "\(error)"))
            return true
        case .success(let fetched)?:
            document.bound.finish()
            guard !isAbandoned(bound), !isStopped(exchange.request) else { return true }
            // The page is shown this document: the cookies it set join the jar now.
            let cookies = SetCookie.all(in: fetched.headers, from: fetched.finalURL)
            if !cookies.isEmpty { client.commitCookies(cookies.map(\.value), from: fetched.finalURL) }
            exchange.page?.stats.documentFetchedEarly = true
            do {
                try await deliver(fetched, exchange, bound)
            } catch {
                if !isAbandoned(bound) {
                    fail(exchange.request, error as? HeadwayError ?? HeadwayError(.loadFailed, "\(error)"))
                }
            }
            return true
        }
    }
}
