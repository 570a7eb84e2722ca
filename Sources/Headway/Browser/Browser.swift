import CHeadwayShims
import CWebKit
public import Foundation

/// Owns the engine and one WebKit web context (ephemeral by default: nothing is written to disk).
///
/// ```swift
/// let server = try await HTTPServer(root: site)   // serves the folder `site` on loopback
/// let url = await server.url.appendingPathComponent("index.html")
/// let title = try await Browser.withPage { page in
///     try await page.load(url).title
/// }
/// ```
@EngineActor
public final class Browser {
    /// How this browser was set up.
    public let configuration: Configuration
    let context: GObjectRef<WebKitWebContext>
    let booster: Booster?
    // Answers the extension's questions with the configuration's request filter.
    private let filterServer: RequestFilterServer?
    // With `allowsRequestInterception`: which pages intercept, and the responses given to
    // held requests.
    let interception: Interception?
    let provided: ProvidedResponses?
    // Whether its web processes load Headway's extension.
    let hasWebExtension: Bool
    // The memory limit of its pages' web processes in MB, or nil (see `webProcessMemoryLimit`).
    let memoryLimit: Int?
    private var pages: [ObjectIdentifier: WeakPage] = [:]
    // The popups its pages opened, held until they close: no client holds them at first.
    private var popups: [ObjectIdentifier: Page] = [:]
    private(set) var isClosed = false

    /// Starts the engine (and a private Xvfb when there is no DISPLAY) and creates the web context.
    /// The first call in a process waits until they are up and cannot be cancelled; `withBrowser`
    /// and `withPage` wait cancellably.
    ///
    /// The engine's thread gives up `CAP_SYS_NICE` when it starts, so that WebKit cannot make its
    /// threads real-time (as it does for root); other threads of the process keep theirs.
    public init(configuration: Configuration = Configuration()) throws {
        try Browser.validate(configuration)
        // Opened first, so that a directory refused leaves nothing started behind.
        let disk = try configuration.booster?.cacheDirectory.map {
            try DiskCache(directory: $0, capacity: configuration.booster?.cacheDirectoryBytes ?? 0)
        }
        // Before the engine starts: its GL preload must not meet a variable being added.
        if let port = configuration.inspectorPort { try Inspector.serve(on: port) }
        try Engine.startGTK(scale: configuration.deviceScaleFactor)
        self.configuration = configuration
        context = GObjectRef(taking: hw_web_context_new(configuration.ephemeral ? 1 : 0,
                                                        guint(clamping: configuration.webProcessMemoryLimit ?? 0)))
        Inspector.noteContextCreated()
        // A browser's cache model: within a run, pages reuse what earlier loads cached, as a
        // browser would (the document-viewer model turns the memory cache off).
        webkit_web_context_set_cache_model(context.pointer, WEBKIT_CACHE_MODEL_WEB_BROWSER)
        // As MiniBrowser does: WebKit then asks for each page's icon (/favicon.ico by default).
        webkit_web_context_set_favicon_database_directory(context.pointer, nil)
        let context = self.context
        let interception = configuration.allowsRequestInterception ? Interception() : nil
        self.interception = interception
        if configuration.requestFilter != nil || interception != nil {
            var holding: (@Sendable () -> Bool)?
            var hold: (@Sendable (ExtensionQuestion, @escaping @Sendable (ExtensionAnswer) -> Void) -> Void)?
            if let interception {
                holding = { interception.isActive }
                hold = { question, reply in interception.hold(question, reply: reply) }
            }
            guard let server = RequestFilterServer(filter: configuration.requestFilter, holding: holding, hold: hold)
            else {
                throw HeadwayError(
                    .engine,
                    "could not open the request filter's socket: \(String(cString: strerror(errno)))"
                )
            }
            filterServer = server
        } else {
            filterServer = nil
        }
        provided = interception != nil ? ProvidedResponses(context: context.pointer) : nil
        do {
            let installed = try WebExtension.install(
                on: context.pointer, configuration: configuration, filterAddress: filterServer?.address
            )
            memoryLimit = configuration.webProcessMemoryLimit
                ?? (installed ? Browser.defaultWebProcessMemoryLimit : nil)
            hasWebExtension = installed
        } catch {
            filterServer?.stop()
            throw error
        }
        // An emulated network needs the booster's handler, which paces every response.
        booster = configuration.booster != nil || configuration.networkConditions != nil
            ? Booster(context: context.pointer, configuration: configuration.booster ?? BoosterConfiguration(),
                      browser: configuration, userAgent: Browser.userAgent, disk: disk)
            : nil
        applyNetworkSettings()
        interception?.browser = self
        // The booster put them in its jar as it was made.
        if !configuration.cookies.isEmpty { cookiesSet = Task { await self.setCookies(inBooster: false) } }
    }

    // Adding the configured cookies, which every navigation waits for.
    private(set) var cookiesSet: Task<Void, Never>?

    // Runs on the engine thread whichever thread drops the last reference, so the web context
    // and the booster's objects are released there. Pages opened here keep working without it.
    isolated deinit {
        booster?.close()
        releaseExtension()
    }

    // Stops answering the extension's filter questions.
    private func releaseExtension() {
        filterServer?.stop()
    }

    // WebKit's default User-Agent, which the booster's own requests send too unless the
    // configuration sets one.
    private static var userAgent: String {
        let settings = webkit_settings_new()!
        defer { g_object_unref(UnsafeMutableRawPointer(settings)) }
        return String(cString: webkit_settings_get_user_agent(settings))
    }

    /// Each request the prefetch booster makes from now on, as it ends (the latest 1000 wait for
    /// a listener that falls behind); nil when the booster is off. The stream ends when the
    /// browser closes.
    public func prefetchReports() -> AsyncStream<PrefetchReport>? { booster?.prefetchReports() }

    /// What the prefetch booster did so far, or nil when it is off.
    public var prefetchStats: PrefetchRunStats? { booster?.runStats }

    /// Waits until the running prefetch has settled, at most `timeout`. Returns early
    /// when the calling task is cancelled (the prefetch goes on).
    public func settlePrefetch(timeout: Duration = .seconds(30)) async {
        await booster?.settle(timeout: timeout)
    }

    /// Starts fetching the document at `url` now, with the booster's session, so that a
    /// `Page.load(url)` soon after finds it on its way instead of asking for it once its web
    /// process is ready (`PrefetchLoadStats.documentFetchedEarly`). The request is the one that
    /// load would send, cookies included; the cookies its response sets join the jar only when a
    /// page shows it. A document the cache holds is not fetched, and one no page takes within
    /// 30 seconds is dropped.
    ///
    /// Throws `.invalidArgument` without a booster (`Configuration.booster`) or for a URL that is
    /// not http(s), and `.closed` once the browser is closed.
    public func preload(_ url: URL) throws {
        guard !isClosed else { throw HeadwayError(.closed, "the browser is closed") }
        guard let booster else {
            throw HeadwayError(.invalidArgument, "preload needs the booster: set Browser.Configuration.booster")
        }
        guard ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
            throw HeadwayError(
                .invalidArgument,
                "only http and https documents can be preloaded, not \(url.absoluteString)"
            )
        }
        booster.preload(url)
    }

    /// Opens a new page (one web view). The page holds `delegate` weakly: keep a strong reference
    /// to it for as long as it should get callbacks.
    public func newPage(delegate: (any NavigationDelegate)? = nil) throws -> Page {
        guard !isClosed else { throw HeadwayError(.closed, "the browser is closed") }
        let page = Page(browser: self, delegate: delegate)
        pages[ObjectIdentifier(page)] = WeakPage(page)
        return page
    }

    /// Forgets every cached resource, cookie and storage item (and the prefetch cache), so the
    /// next load is cold; the configuration's own cookies are then set again, and the booster's
    /// hidden prerendered pages end. A booster's cache directory
    /// (`BoosterConfiguration.cacheDirectory`) is left alone: it can still answer. Gives up after
    /// `timeout`, or at once when the calling task is cancelled.
    public func clearWebsiteData(timeout: Duration = .seconds(30)) async {
        defer { if !configuration.cookies.isEmpty { cookiesSet = Task { await self.setCookies() } } }
        booster?.forgetEverything()
        let manager = webkit_web_context_get_website_data_manager(context.pointer)
        _ = try? await engineAsync(timeout: timeout) { cancellable, callback, data in
            webkit_website_data_manager_clear(manager, WEBKIT_WEBSITE_DATA_ALL, 0, cancellable, callback, data)
        } finish: { source, result in
            var error: UnsafeMutablePointer<GError>?
            let manager = source.map { cast($0, to: WebKitWebsiteDataManager.self) }
            _ = webkit_website_data_manager_clear_finish(manager, result, &error)
            if let error { g_error_free(error) }
        }
    }

    /// Waits until the booster's cache directory (`BoosterConfiguration.cacheDirectory`) holds
    /// every response given to it so far: its writes run in the background, off the engine
    /// thread, so call this before the process exits. Returns at once without a cache directory,
    /// and after `timeout` or at once when the calling task is cancelled (the writes go on).
    public func flushCacheDirectory(timeout: Duration = .seconds(30)) async {
        guard let disk = booster?.cacheDirectory else { return }
        _ = try? await EngineWait<Void>.run(timeout: timeout, onTimeout: { .success(()) }) { wait in
            disk.afterQueuedWrites { Task { @EngineActor in wait.resume(.success(())) } }
        }
    }

    /// Closes every page. The browser cannot open pages afterwards.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        booster?.close()
        releaseExtension()
        for page in pages.values.compactMap(\.page) { page.close() }
        pages.removeAll()
        popups.removeAll()
    }

    func pageClosed(_ page: Page) {
        pages[ObjectIdentifier(page)] = nil
        popups[ObjectIdentifier(page)] = nil
    }

    /// How many popups (windows its pages opened themselves, by `window.open`, `target=_blank`
    /// links or forms) a browser keeps open at once: beyond it, `window.open` gets `null` in the
    /// page, no page opens, and the opener's console gets a warning from Headway. Closing a
    /// popup makes room for another.
    public static let maxOpenPopups = 50

    // The popups of this browser's pages still open.
    var openPopupCount: Int { popups.count }

    // Takes in a page a page of this browser opened, holding it until it closes.
    func adoptPopup(_ page: Page) {
        pages[ObjectIdentifier(page)] = WeakPage(page)
        popups[ObjectIdentifier(page)] = page
    }

    /// Every open page of this browser: those `newPage` made (while their clients hold them)
    /// and the popups pages opened; in no particular order.
    public var openPages: [Page] { pages.values.compactMap(\.page).filter { !$0.isClosed } }

    /// Runs `body` with a fresh browser and closes it (and every page it opened) afterwards,
    /// whether `body` returns or throws. Use it from any task or actor to scope a browser.
    /// Cancelling the task while the engine starts (or its private Xvfb) throws
    /// `CancellationError` at once; the start goes on for the next browser.
    ///
    /// ```swift
    /// let titles = try await Browser.withBrowser { browser in
    ///     let page = try browser.newPage()
    ///     return [try await page.load(a).title, try await page.load(b).title]
    /// }
    /// ```
    public static func withBrowser<T: Sendable>(
        configuration: Configuration = Configuration(),
        _ body: @EngineActor (Browser) async throws -> T
    ) async throws -> T {
        let browser = try await starting(configuration)
        return try await browser.closing { try await body(browser) }
    }

    /// Runs `body` with a fresh page in a fresh browser and tears both down afterwards,
    /// whether `body` returns or throws; cancellation while the browser starts as for `withBrowser`.
    public static func withPage<T: Sendable>(
        configuration: Configuration = Configuration(),
        delegate: (any NavigationDelegate)? = nil,
        _ body: @EngineActor (Page) async throws -> T
    ) async throws -> T {
        let browser = try await starting(configuration)
        return try await browser.closing {
            let page = try browser.newPage(delegate: delegate)
            return try await body(page)
        }
    }

    // Starts the engine, waiting for a private Xvfb without blocking the engine thread, so that
    // cancelling the task ends the wait at once; then the browser.
    private static func starting(_ configuration: Configuration) async throws -> Browser {
        try validate(configuration)
        // Before the engine starts, as in `init`.
        if let port = configuration.inspectorPort { try Inspector.serve(on: port) }
        try await Engine.start(scale: configuration.deviceScaleFactor)
        try Task.checkCancellation()
        return try Browser(configuration: configuration)
    }

    // Runs `body`, then closes the browser and waits until the tasks its pages started have
    // ended: none outlives the scope.
    private func closing<T>(_ body: () async throws -> T) async throws -> T {
        let result: Result<T, Error>
        do { result = .success(try await body()) } catch { result = .failure(error) }
        let open = pages.values.compactMap(\.page)
        close()
        for page in open { await page.tasks.ended() }
        return try result.get()
    }
}
