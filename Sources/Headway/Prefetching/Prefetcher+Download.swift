import Foundation

extension Prefetcher {
    // At most this many redirects are followed for one prefetch.
    static let maxRedirects = 5

    // Fetches `url` for the cache under `request`'s cancellable and deadline. Redirects are
    // followed here, one hop at a time, only to URLs the link policy allows (never to a path
    // that acts, such as `/logout`). The requests carry the browser's cookies, but cookies the
    // responses set are held with the entry, not stored (see `SetCookie`). Returns the response
    // to store, if any, and whether it was refused for being larger than the budget left or the
    // response cap. With a disk cache, an entry there is used (fresh) or revalidated (stale) instead.
    // The bytes it will take are taken from `run`'s budget as soon as its `Content-Length` is
    // known, in place of `ahead` (a guess already taken when the fetch began); what was taken is
    // returned as `reserved`, so parallel fetches cannot overrun the budget together.
    func download(_ url: URL, run: PrefetchRun, isPage: Bool, page: URL, request: BoundedRequest,
                  ahead: Int) async -> (CachedResponse?, tooLarge: Bool, reserved: Int) {
        var reserved = ahead
        let (response, tooLarge) = await download(url, run: run, isPage: isPage, page: page, request: request,
                                                  reserved: &reserved)
        return (response, tooLarge, reserved)
    }

    private func download(_ url: URL, run: PrefetchRun, isPage: Bool, page: URL, request: BoundedRequest,
                          reserved: inout Int) async -> (CachedResponse?, tooLarge: Bool) {
        // The headers WebKit sends for such a request, so that `Vary` matches what the page asks.
        let headers = client.browserHeaders.completing([
            ("Accept", isPage ? "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" : "*/*"),
        ]) + [("Sec-Purpose", "prefetch")]
        var stale: CachedResponse?
        let outgoing = client.outgoingHeaders(headers, to: url)
        switch cache.lookup(url, requestHeaders: outgoing, use: false) {
        case .stale(let entry)?: stale = entry
        case .fresh?: break
        case nil:
            // The disk cache, read off the engine thread: a fresh entry needs no request at all.
            if let found = await cache.disk?.lookup(url, requestHeaders: outgoing) {
                var found = found
                found.prefetched = true
                guard !found.isFresh(at: Engine.now()) else { return (found, false) }
                stale = found
            }
        }
        let policy = LinkPolicy(configuration: configuration)
        var target = url
        var cookies: [SetCookie] = []
        do {
            for hop in 0...Self.maxRedirects {
                let conditional = hop == 0 ? stale?.conditionalHeaders ?? [] : []
                let response = try await client.send(
                    method: "GET",
                    url: target,
                    headers: headers + conditional,
                    body: nil,
                    followRedirects: false,
                    holdingCookies: true,
                    cancellable: request.pointer
                )
                cookies += SetCookie.all(in: response.headers, from: target)
                if hop == 0, let stale, response.status == 304 {
                    stats.revalidated += 1
                    return (cache.revalidated(stale, notModified: response.headers, use: false), false)
                }
                if [301, 302, 303, 307, 308].contains(response.status), let location = response.header("Location") {
                    // Never act for the user: a redirect into a path the policy skips is not followed.
                    guard hop < Self.maxRedirects, let next = URL(string: location, relativeTo: target)?.absoluteURL,
                          policy.allowsRedirect(to: next, page: page, isPage: isPage) else { return (nil, false) }
                    target = next
                    continue
                }
                guard
                    let lifetime = CachePolicy.lifetime(
                        method: "GET",
                        status: response.status,
                        headers: response.headers
                    )
                else {
                    return (nil, false)
                }
                // What is left of the budget now, not when the fetch began: others may have spent it.
                let limit = min(configuration.maxResponseBytes, run.budget + reserved)
                let length = response.header("Content-Length").flatMap(Int.init)
                if let length, length > limit { return (nil, true) }
                if let length {
                    run.budget += reserved - length
                    reserved = length
                }
                let body: Data
                do {
                    body = try await client.readAll(response.stream, limit: limit, cancellable: request.pointer)
                } catch let error as HeadwayError where error.gerror == nil {
                    return (nil, true)  // readAll's own error: the body passed `limit`
                }
                if let stale { cache.remove(stale) }
                var vary: [String: String] = [:]
                for name in CachePolicy.variantNames(response.headers) {
                    vary[name] = headerValue(response.requestHeaders, name) ?? ""
                }
                return (
                    CachedResponse(
                        url: target,
                        status: response.status,
                        headers: CachePolicy.storedHeaders(response.headers),
                        body: body,
                        varyValues: vary,
                        storedAt: Engine.now(),
                        lifetime: lifetime,
                        prefetched: true,
                        cookies: cookies
                    ), false
                )
            }
            return (nil, false)
        } catch {
            return (nil, false)  // failed, cancelled, or past its deadline
        }
    }
}
