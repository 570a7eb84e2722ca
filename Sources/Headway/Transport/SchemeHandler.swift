import CWebKit
import Foundation

// Answers WebKit's requests on the mirror schemes: from the prefetch cache when it can, by
// joining a prefetch still in flight, or by fetching with libsoup and streaming the body to
// WebKit as it arrives. Methods other than GET go straight through and are never cached.
// Each fetch runs under a `BoundedRequest`: cancelled when its page stops loading, starts
// another navigation (main-frame fetches) or closes, and given up after `requestTimeout`
// seconds without response headers. (WebKitGTK tells a scheme handler nothing when it stops a
// request: `webkit_uri_scheme_request_get_web_view` stays set while the page lives.)
@EngineActor
final class SchemeHandler {
    let client: SoupClient
    let cache: PrefetchCache
    // Main documents fetched ahead of WebKit's request, by URL (see `EarlyDocument`).
    var early: [URL: EarlyDocument] = [:]
    // How long a fetch may wait for its response headers; the body then streams to WebKit,
    // which stops reading it when the load is stopped.
    static let requestTimeout: Duration = .seconds(30)
    // Emulated network: each network fetch waits out the latency before it is sent, and its
    // body reaches WebKit no faster than the bandwidth. Cache answers are not slowed.
    var conditions: NetworkConditions?
    // With a disk cache: storable responses up to this many bytes are read whole, stored and
    // then answered from the cache, instead of streamed (nil: every response streams).
    var storeLimit: Int?
    // Without a disk cache: storable subresources the pages load (scripts, style sheets, images)
    // up to this many bytes are read whole and kept in the memory cache, so that neither the
    // prefetcher nor the next page fetches them again (nil: they stream and are not kept).
    var keepLimit: Int?

    // Main documents pages loaded from the network (they stream, so the cache does not keep
    // them), with the end of their freshness: the prefetcher does not fetch them again meanwhile.
    private(set) var shownDocuments: [URL: ContinuousClock.Instant] = [:]

    // Whether a page loaded `url` as its document from the network and it would still be fresh.
    func wasShown(_ url: URL) -> Bool {
        shownDocuments[url].map { Engine.now() < $0 } ?? false
    }

    private func noteShown(_ response: SoupClient.Response, _ exchange: Exchange) {
        guard keepLimit != nil, exchange.isMainFrame, exchange.cacheable,
              let lifetime = CachePolicy.lifetime(method: "GET", status: response.status, headers: response.headers),
              lifetime > .zero else { return }
        let now = Engine.now()
        if shownDocuments.count >= 1000 { shownDocuments = shownDocuments.filter { now < $0.value } }
        if shownDocuments.count < 1000 { shownDocuments[response.finalURL] = now + lifetime }
    }

    init(client: SoupClient, cache: PrefetchCache) {
        self.client = client
        self.cache = cache
    }

    // Cancels the page's fetches still waiting for their response headers, and the early
    // document its navigation started: all of them when it stopped loading or closed, or only
    // the main frame's when a new navigation begins.
    func cancelFetches(of page: PageBooster, mainFrameOnly: Bool) {
        dropEarly(startedBy: page)
        page.cancelOpenFetches(mainFrameOnly: mainFrameOnly)
    }

    func handle(_ raw: UnsafeMutablePointer<WebKitURISchemeRequest>) {
        let received = Engine.now()
        let request = GObjectRef(retaining: raw)
        guard let mirror = URL(string: String(cString: webkit_uri_scheme_request_get_uri(raw))) else {
            fail(request, HeadwayError(.invalidArgument, "the mirror scheme got an invalid URL"))
            return
        }
        let url = MirrorScheme.real(mirror)
        let method = webkit_uri_scheme_request_get_http_method(raw).map { String(cString: $0) } ?? "GET"
        let view = webkit_uri_scheme_request_get_web_view(raw)
        let page = view.flatMap(PageBooster.of)
        // Subresources and frames follow redirects inside the handler; the main document's are
        // replayed as navigations.
        let isMainFrame = view.map { Self.isMainDocument(mirror, of: $0) } ?? false
        if answerCookies(request, method: method, url: url) { return }
        if answerPreflight(request, method: method, url: url) { return }
        if method != "GET", method != "HEAD", page?.owner?.refusesAction() == true {
            fail(
                request,
                HeadwayError(.blockedURL, "a hidden prerendered page may not send \(method) \(url.absoluteString)")
            )
            return
        }
        let headers = client.browserHeaders.completing(forwardedHeaders(raw))
        let body =
            method == "GET" || method == "HEAD"
            ? nil : webkit_uri_scheme_request_get_http_body(raw).map { OpaqueGObjectRef(taking: OpaquePointer($0)) }
        // The page's own conditional requests go to the server as they are.
        let cacheable =
            method == "GET" && headerValue(headers, "If-None-Match") == nil
            && headerValue(headers, "If-Modified-Since") == nil
        let outgoing = client.outgoingHeaders(headers, to: url)
        let exchange = Exchange(request: request, url: url, mirror: mirror, method: method, headers: headers,
                                isMainFrame: isMainFrame, cacheable: cacheable, view: view, page: page,
                                generation: isMainFrame ? page?.owner?.navigationGeneration : nil, received: received)
        var stale: CachedResponse?
        switch cacheable ? cache.lookup(url, requestHeaders: outgoing) : nil {
        case .fresh(let hit)?:
            // A hit is answered at once, inside WebKit's callback.
            if isMainFrame { discardEarly(url) }
            serveHit(exchange, hit)
            return
        case .stale(let entry)?:
            stale = entry
        case nil:
            break
        }
        let staleInMemory = stale
        Task { @EngineActor in
            var stale = staleInMemory
            // The deadline covers a joined prefetch too (itself bounded by `requestTimeout`).
            let bound = self.opened(exchange)
            defer { self.closed(bound, exchange) }
            if isMainFrame, cacheable, stale == nil, await self.answerEarly(exchange, bound) { return }
            if cacheable, stale == nil, let flight = self.cache.fetchInFlight(url), await flight.value != nil,
               !self.isAbandoned(bound),
               case .fresh(let joined)? = self.cache.lookup(
                   url,
                   requestHeaders: self.client.outgoingHeaders(headers, to: url)
               ) {
                exchange.page?.stats.joined += 1
                exchange.page?.noteJoined(exchange.url)
                self.answer(exchange, with: joined)
                return
            }
            guard !self.isAbandoned(bound) else { return }
            if cacheable, stale == nil, self.cache.disk != nil {
                switch await self.lookupOnDisk(exchange, requestHeaders: outgoing) {
                case .fresh(let hit)?:
                    guard !self.isAbandoned(bound) else { return }
                    self.serveHit(exchange, hit)
                    return
                case .stale(let entry)?: stale = entry
                case nil: break
                }
                guard !self.isAbandoned(bound) else { return }
            }
            if let latency = self.conditions?.latency, latency > .zero {
                await self.emulateLatency(latency, bound)
                guard !self.isAbandoned(bound) else { return }
            }
            do {
                if let stale {
                    try await self.revalidate(stale, exchange, bound)
                } else {
                    var data: Data?
                    if let body {
                        data = try await self.client.readAll(body, limit: 64 << 20, cancellable: bound.pointer)
                    }
                    let response =
                        isMainFrame
                        ? try await self.client.send(
                            method: method,
                            url: url,
                            headers: headers,
                            body: data,
                            cancellable: bound.pointer
                        )
                        : try await self.sendFollowing(
                            method: method,
                            url: url,
                            headers: headers,
                            body: data,
                            cancellable: bound.pointer
                        )
                    guard !self.isAbandoned(bound) else { return }
                    try await self.deliver(response, exchange, bound)
                }
            } catch {
                guard !self.isAbandoned(bound) else { return }
                self.fail(request, bound.timedOut
                          ? bound.timeoutError(url)
                          : error as? HeadwayError ?? HeadwayError(.loadFailed, "\(error)"))
            }
        }
    }

    // Waits out `latency`, in short steps so that a fetch its page gave up on stops waiting at
    // once.
    func emulateLatency(_ latency: Duration, _ bound: BoundedRequest) async {
        let end = Engine.now() + latency.clamped
        while !isAbandoned(bound), Engine.now() < end {
            try? await Task.sleep(for: min(.milliseconds(50), Engine.now().duration(to: end)))
        }
    }

    // Starts bounding a fetch for `exchange` (see `cancelFetches`).
    private func opened(_ exchange: Exchange) -> BoundedRequest {
        // Emulated latency comes first, so it does not eat into the server's time to answer.
        let bound = BoundedRequest(timeout: Self.requestTimeout + (conditions?.latency ?? .zero).clamped)
        exchange.page?.opened(bound, isMainFrame: exchange.isMainFrame)
        return bound
    }

    // Whether the fetch was cancelled by its page (stopped, navigated, closed): WebKit stopped
    // the request, which is never written to again.
    func isAbandoned(_ bound: BoundedRequest) -> Bool {
        bound.isCancelled && !bound.timedOut
    }

    // The fetch has its answer (or failed): the response, if any, now streams under WebKit.
    private func closed(_ bound: BoundedRequest, _ exchange: Exchange) {
        bound.finish()
        exchange.page?.closed(bound)
    }

    // One request WebKit made, as the handler answers it from the network.
    struct Exchange {
        var request: GObjectRef<WebKitURISchemeRequest>
        var url: URL
        var mirror: URL
        var method: String
        var headers: HeaderList
        var isMainFrame: Bool
        // A GET without the page's own validators: the cache may answer it and store its response.
        var cacheable: Bool
        var view: UnsafeMutablePointer<WebKitWebView>?
        // The state of the page it came from; weak, so a fetch does not keep a closed page's.
        weak var page: PageBooster?
        var generation: Int?
        // When WebKit handed the request over.
        var received: ContinuousClock.Instant
    }

    // Asks the server whether a stale cached response is still good: a 304 is answered from the
    // cache, anything else replaces it.
    private func revalidate(_ stale: CachedResponse, _ exchange: Exchange, _ bound: BoundedRequest) async throws {
        let response = try await client.send(
            method: "GET",
            url: exchange.url,
            headers: exchange.headers + stale.conditionalHeaders,
            body: nil,
            followRedirects: !exchange.isMainFrame,
            cancellable: bound.pointer
        )
        guard !isAbandoned(bound) else { return }
        guard response.status == 304 else {
            cache.remove(stale)
            try await deliver(response, exchange, bound)
            return
        }
        // Even when the updated headers forbid storing it again, the 304 vouches for this copy.
        let fresh = cache.revalidated(stale, notModified: response.headers, use: true) ?? stale
        exchange.page?.stats.revalidated += 1
        answer(exchange, with: fresh)
    }

    // Hands a network response to WebKit, or replays a main-frame redirect as a navigation.
    func forward(_ response: SoupClient.Response, _ exchange: Exchange) {
        exchange.page?.stats.fetched += 1
        exchange.page?.noteAnswered(exchange.url, received: exchange.received)
        if exchange.isMainFrame, (300...399).contains(response.status), let location = response.header("Location"),
           let target = URL(string: location, relativeTo: exchange.url)?.absoluteURL {
            replayRedirect(exchange, to: target)
            return
        }
        if refusesCrossOriginRead(exchange, finalURL: response.finalURL, headers: response.headers,
                                  credentials: response.sentCredentials) { return }
        noteShown(response, exchange)
        respond(exchange.request, streaming: response)
    }

    // Answers from the cache. A main document the prefetch reached through a redirect is
    // replayed as that redirect, so the page's URL (and its relative links) are the target's.
    // `credentials`: whether cookies or credentials went with the request that fetched it (a
    // prefetch sends the jar's).
    func answer(_ exchange: Exchange, with cached: CachedResponse, credentials: Bool = true) {
        exchange.page?.noteAnswered(exchange.url, received: exchange.received)
        if cached.prefetched, let page = exchange.page {
            page.stats.bytesUsed += cached.body.count
            if exchange.isMainFrame { page.stats.hit = true }
        }
        if refusesCrossOriginRead(exchange, finalURL: cached.url, headers: cached.headers, credentials: credentials) {
            return
        }
        if !cached.cookies.isEmpty, !isStopped(exchange.request) {
            // The page is shown what was prefetched: the cookies held with it join the jar now.
            for cookie in cached.cookies { client.commitCookies([cookie.value], from: cookie.url) }
            cache.forgetCookies(of: cached)
        }
        if exchange.isMainFrame, cached.url != exchange.url {
            replayRedirect(exchange, to: cached.url)
            return
        }
        respond(exchange.request, with: cached)
    }

    // WebKitGTK's scheme handlers cannot redirect: the page navigates to the target itself. The
    // request is not finished: the new navigation stops it, and it is never written to.
    private func replayRedirect(_ exchange: Exchange, to target: URL) {
        guard let view = exchange.view, !isStopped(exchange.request) else { return }
        // A superseded load's redirect is dropped: the view has moved on to another navigation.
        guard Self.isMainDocument(exchange.mirror, of: view), let page = exchange.page,
              page.owner?.navigationGeneration == exchange.generation else { return }
        page.owner?.followMainFrameRedirect(to: target)
    }

    // Whether a request for `mirror` is `view`'s main document: WebKit announces the main
    // resource before it asks for it, and it has no response yet. The view's URI will not do:
    // for a navigation the page starts (a link, a script), it is the old page's until commit.
    static func isMainDocument(_ mirror: URL, of view: UnsafeMutablePointer<WebKitWebView>) -> Bool {
        guard let resource = webkit_web_view_get_main_resource(view), let uri = webkit_web_resource_get_uri(resource)
        else { return false }
        return String(cString: uri) == mirror.absoluteString && webkit_web_resource_get_response(resource) == nil
    }
}
