import Foundation

// The handler with a disk cache: a request the memory cache cannot answer looks on disk (off
// the engine thread) before it goes to the network, and a storable response from the network
// is read whole and stored, in memory and on disk, before WebKit gets it.
extension SchemeHandler {
    // Answers `exchange` from the cache and counts it.
    func serveHit(_ exchange: Exchange, _ hit: CachedResponse) {
        answer(exchange, with: hit)
        guard let page = exchange.page else { return }
        page.stats.fromCache += 1
        page.noteCacheHit(exchange.url)
        page.stats.slowestCacheAnswer = max(page.stats.slowestCacheAnswer, exchange.received.duration(to: Engine.now()))
    }

    // The disk cache's entry for `exchange`, put into the memory cache and looked up there,
    // so that it follows the same rules from then on.
    func lookupOnDisk(_ exchange: Exchange, requestHeaders: [String: String]) async -> PrefetchCache.Lookup? {
        guard let disk = cache.disk, let found = await disk.lookup(exchange.url, requestHeaders: requestHeaders) else {
            return nil
        }
        cache.insert(found, under: exchange.url)
        return cache.lookup(exchange.url, requestHeaders: requestHeaders)
    }

    // Hands a network response to WebKit: streamed, or, with a disk cache and a storable
    // response, read whole (at most `storeLimit` bytes), stored, and answered from the cache.
    // Without one, a storable subresource is kept the same way within `keepLimit` (main
    // documents stream, so a page renders as its document arrives).
    // A body of unknown length is read whole only when it was compressed on the wire (text,
    // mostly, which servers such as nginx send chunked); then at most 64 MB (more fails the
    // request), and kept only within `storeLimit`.
    func deliver(_ response: SoupClient.Response, _ exchange: Exchange, _ bound: BoundedRequest) async throws {
        let length = response.header("Content-Length").flatMap(Int.init)
        let encoded = response.header("Content-Encoding") != nil
        guard let limit = storeLimit ?? (exchange.isMainFrame ? nil : keepLimit), exchange.cacheable, conditions == nil,
              !(exchange.isMainFrame && (300...399).contains(response.status)),
              let lifetime = CachePolicy.lifetime(method: "GET", status: response.status, headers: response.headers),
              encoded || length.map({ $0 <= limit }) == true else {
            forward(response, exchange)
            return
        }
        // The headers came: the body is no longer bound by the wait for them (as a streamed one is
        // not), only by the load, which cancels it when it stops.
        bound.finish()
        let body = try await client.readAll(
            response.stream,
            limit: encoded ? 64 << 20 : limit,
            cancellable: bound.pointer
        )
        guard !isAbandoned(bound) else { return }
        var vary: [String: String] = [:]
        for name in CachePolicy.variantNames(response.headers) {
            vary[name] = headerValue(response.requestHeaders, name) ?? ""
        }
        let cached = CachedResponse(url: response.finalURL, status: response.status,
                                    headers: CachePolicy.storedHeaders(response.headers), body: body,
                                    varyValues: vary, storedAt: Engine.now(), lifetime: lifetime, wasUsed: true)
        if body.count <= limit { cache.insert(cached, under: exchange.url) }
        exchange.page?.stats.fetched += 1
        answer(exchange, with: cached, credentials: response.sentCredentials)
    }
}
