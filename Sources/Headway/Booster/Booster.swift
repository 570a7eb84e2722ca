import CWebKit
import Foundation

// The prefetch booster of one browser, in two halves over one cache. The transport
// (`Transport/`): the mirror schemes and their handler, which answers the pages' requests from
// the prefetch cache or the network, with each page's state in a `PageBooster` the page owns.
// Prefetching (`Prefetching/`): the prefetcher that the internal delegate starts after each load
// finishes, and the hidden prerendered pages. Both use the cache (`Cache/`) and the libsoup
// client (`Net/`). A browser that emulates a network without prefetching has a booster too,
// with `prefetches` off: its pages are browsed through the handler, which paces every
// response. With a cache directory, the cache is also kept on disk (`DiskCache`).
@EngineActor
final class Booster {
    let configuration: BoosterConfiguration
    let client: SoupClient
    let cache: PrefetchCache
    let prefetcher: Prefetcher
    let handler: SchemeHandler
    // The hidden views of `configuration.prerender`, or nil when it is 0.
    let prerenders: PrerenderPool?

    // Whether finished loads start a prefetch (false when the booster only emulates a network).
    let prefetches: Bool

    init(context: UnsafeMutablePointer<WebKitWebContext>, configuration: BoosterConfiguration,
         browser: Browser.Configuration, userAgent: String, disk: DiskCache?) {
        self.configuration = configuration
        prefetches = browser.booster != nil
        NetworkWarmup.start()
        client = SoupClient(identity: Self.identity(of: browser, userAgent: userAgent),
                            connectionsPerHost: max(6, configuration.concurrency))
        cache = PrefetchCache(capacity: configuration.cacheBytes, disk: disk)
        prefetcher = Prefetcher(client: client, cache: cache, configuration: configuration)
        handler = SchemeHandler(client: client, cache: cache)
        prerenders = prefetches && configuration.prerender > 0 ? PrerenderPool(capacity: configuration.prerender) : nil
        handler.conditions = browser.networkConditions
        for cookie in browser.cookies { client.add(cookie) }
        if disk != nil { handler.storeLimit = configuration.maxResponseBytes }
        if prefetches { handler.keepLimit = configuration.maxResponseBytes }
        let security = webkit_web_context_get_security_manager(context)
        for scheme in MirrorScheme.all {
            let target = HandlerTarget(handler)
            // Released by the destroy notify when the context goes away.
            webkit_web_context_register_uri_scheme(context, scheme, schemeRequest,
                                                   Unmanaged.passRetained(target).toOpaque(), releaseHandlerTarget)
            webkit_security_manager_register_uri_scheme_as_secure(security, scheme)
            webkit_security_manager_register_uri_scheme_as_cors_enabled(security, scheme)
        }
    }

    private var trigger: Task<Void, Never>?

    // What the booster's client sends and answers, as `browser`'s pages do; `userAgent` unless
    // it names its own.
    static func identity(of browser: Browser.Configuration, userAgent: String) -> ClientIdentity {
        ClientIdentity(userAgent: browser.userAgent ?? userAgent,
                       headers: BrowserHeaders(locale: browser.locale, extra: browser.extraHeaders),
                       proxy: browser.proxy, credentials: browser.credentials.map { ($0.user, $0.password) },
                       ignoresTLSErrors: browser.ignoreTLSErrors)
    }

    // Called when Headway starts a navigation to `url` (real or mirror) itself (`Page.load`, a
    // replayed redirect): its document is fetched at once, from `page`'s navigation, while the
    // web process gets ready (`SchemeHandler.fetchEarly`), unless the cache holds it.
    func willNavigate(to url: URL, from page: PageBooster?) {
        handler.fetchEarly(MirrorScheme.real(url), page: page)
    }

    // For a cold start: stops the link extraction and prefetch under way, ends every hidden
    // page, and empties the cache and the cookie jar.
    func forgetEverything() {
        trigger?.cancel()
        prefetcher.cancel()
        prerenders?.close()
        handler.dropAllEarly()
        cache.removeAll()
        client.clearCookies()
    }

    // Stops prefetching and ends every hidden prerendered page. The disk cache's queued
    // writes go on in the background (`Browser.flushCacheDirectory` waits for them).
    func close() {
        isClosed = true
        trigger?.cancel()
        prefetcher.cancel()
        prerenders?.close()
        handler.dropAllEarly()
        prefetcher.reporters.finish()
    }

    private var isClosed = false

    // Called by the internal delegate once a page finished loading: finds its links and
    // starts prefetching them.
    func pageFinished(_ page: Page) {
        guard prefetches else { return }
        trigger = Task { @EngineActor in await self.extractAndPrefetch(page) }
    }

    // A page is closing: the handler's fetches for it are cancelled. The prefetch of its links
    // belongs to the browser and goes on (a page dropped right after its load is common) until
    // the next navigation, the end of a settle, or `close`.
    func pageClosed(_ page: PageBooster) {
        handler.cancelFetches(of: page, mainFrameOnly: false)
    }

    // Waits for the link extraction of the last finished page and the prefetch it started, at
    // most `timeout`: then both are stopped, with every prefetch request in flight.
    // Returns early, leaving them alone, when the task is cancelled.
    func settle(timeout: Duration) async {
        let deadline = Engine.now() + timeout.clamped
        if let trigger {
            switch try? await EngineWait.ended(trigger, within: timeout) {
            case true?: break
            case false?:
                trigger.cancel()
                prefetcher.cancel()
                return
            case nil: return
            }
        }
        await prefetcher.settle(timeout: Engine.now().duration(to: deadline).clamped)
        await prerenders?.settle(timeout: Engine.now().duration(to: deadline).clamped)
    }

    private func extractAndPrefetch(_ page: Page) async {
        guard let view = try? page.liveView(), let pageURL = page.url,
            ["http", "https"].contains(pageURL.scheme?.lowercased() ?? "")
        else { return }
        guard
            let found = try? await JavaScriptCall.callAsyncFunction(
                view,
                PageScripts.anchors,
                arguments: [:],
                world: PageScripts.world,
                sourceURI: nil,
                timeout: .seconds(10),
                what: "the link extraction"
            ),
            let text = found.stringValue,
            let extracted = try? JSONDecoder().decode(LinkPolicy.Found.self, from: Data(text.utf8))
        else { return }
        // Speculation rules the page got wrong are ignored, with a note among its console messages.
        for note in extracted.notes where page.url == pageURL { page.noteFromHeadway(note) }
        let real = extracted.links.map { link in
            var link = link
            link.href = MirrorScheme.real(link.href)
            return link
        }
        // A settle that ran out before the extraction ended cancelled it: nothing starts late.
        guard page.url == pageURL, !Task.isCancelled else { return }
        prefetcher.start(links: real, page: pageURL, shown: handler.wasShown)
        if let prerenders, let browser = page.browser, !isClosed {
            // The likeliest pages first, as the prefetch orders them; their documents come from
            // the prefetch (joined in flight) through the handler.
            let likeliest = LinkPolicy(configuration: configuration).select(real, page: pageURL).pages
            prerenders.prerender(likeliest, browser: browser)
        }
    }
}

@EngineActor
private final class HandlerTarget {
    let handler: SchemeHandler
    init(_ handler: SchemeHandler) { self.handler = handler }
}

private func schemeRequest(_ request: UnsafeMutablePointer<WebKitURISchemeRequest>?, _ data: gpointer?) {
    guard let request, let data else { return }
    nonisolated(unsafe) let raw = request
    let target = Unmanaged<HandlerTarget>.fromOpaque(data).takeUnretainedValue()
    EngineActor.assumeIsolated { target.handler.handle(raw) }
}

private func releaseHandlerTarget(_ data: gpointer?) {
    Unmanaged<HandlerTarget>.fromOpaque(data!).release()
}
