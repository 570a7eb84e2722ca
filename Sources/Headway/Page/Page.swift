import CHeadwayShims
import CWebKit
public import Foundation

/// One web view: load pages, run JavaScript, read state and timing.
///
/// ```swift
/// let result = try await page.load(URL(string: "http://127.0.0.1:8080/")!)
/// let links = try await page.evaluate("document.links.length")
/// ```
@EngineActor
public final class Page {
    /// The user's navigation delegate, held weakly; Headway's own delegate forwards every
    /// callback to it.
    public var delegate: (any NavigationDelegate)? {
        get { chain.user }
        set { chain.user = newValue }
    }

    /// The latest observable state. `stateUpdates()` streams every change.
    public internal(set) var state = PageState(url: nil, title: "", isLoading: false, estimatedProgress: 0,
                                              canGoBack: false, canGoForward: false)
    public var url: URL? { state.url }
    public var title: String { state.title }
    public var isLoading: Bool { state.isLoading }
    public var estimatedProgress: Double { state.estimatedProgress }

    /// Every event since the page was created, in order, buffered so none is lost before you
    /// iterate (bounded to the newest 10,000 to keep long runs flat).
    public nonisolated let events: AsyncStream<PageEvent>

    /// Console messages and uncaught errors since the last navigation request.
    public internal(set) var console: [ConsoleMessage] = []
    public internal(set) var errors: [PageError] = []

    weak var browser: Browser?
    var booster: Booster? { browser?.booster }
    let tracker = NavigationTracker()
    private(set) var chain: ChainingDelegate!
    let eventSink: AsyncStream<PageEvent>.Continuation
    var stateSinks: [UUID: AsyncStream<PageState>.Continuation] = [:]
    private(set) var view: GObjectRef<WebKitWebView>?
    private var window: GObjectRef<GtkWidget>?
    private let contentManager: GObjectRef<WebKitUserContentManager>
    private var viewSignals: SignalConnections?
    private var managerSignals: SignalConnections?

    init(browser: Browser, delegate: (any NavigationDelegate)?) {
        self.browser = browser
        (events, eventSink) = AsyncStream.makeStream(of: PageEvent.self, bufferingPolicy: .bufferingNewest(10_000))
        contentManager = GObjectRef(taking: webkit_user_content_manager_new())
        let script = webkit_user_script_new(PageScripts.instrumentation, WEBKIT_USER_CONTENT_INJECT_TOP_FRAME,
                                            WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, nil, nil)
        webkit_user_content_manager_add_script(contentManager.pointer, script)
        webkit_user_script_unref(script)
        webkit_user_content_manager_register_script_message_handler(contentManager.pointer, "headway")

        let rawView = hw_web_view_new(browser.context.pointer, contentManager.pointer)
        g_object_ref_sink(UnsafeMutableRawPointer(rawView))
        let view = GObjectRef(taking: rawView)
        let window = GObjectRef(retaining: gtk_offscreen_window_new())
        gtk_window_set_default_size(cast(window.pointer), Int32(browser.configuration.viewportWidth),
                                    Int32(browser.configuration.viewportHeight))
        gtk_container_add(cast(window.pointer), cast(view.pointer))
        gtk_widget_show_all(window.pointer)
        self.view = view
        self.window = window

        chain = ChainingDelegate(tracker: tracker) { [weak self] event in self?.emit(event) }
        chain.user = delegate
        browser.booster?.register(self, view: view.pointer)
        let target = WeakPage(self)
        viewSignals = PageSignals.connect(view: view, target: target)
        managerSignals = PageSignals.connect(manager: contentManager, target: target)
    }

    isolated deinit {
        close()
    }

    // MARK: Navigation

    /// Loads `url` and returns once it finished (after the load event), failed or timed out.
    @discardableResult
    public func load(_ url: URL, timeout: Double = 30) async throws -> LoadResult {
        let view = try liveView()
        let target = booster != nil ? MirrorScheme.mirror(url) : url
        return try await navigate(url, timeout: timeout) {
            webkit_web_view_load_uri(view, target.absoluteString)
        }
    }

    /// Reloads the current page.
    @discardableResult
    public func reload(timeout: Double = 30) async throws -> LoadResult {
        let view = try liveView()
        return try await navigate(url, timeout: timeout) { webkit_web_view_reload(view) }
    }

    /// Goes back one entry in the history.
    @discardableResult
    public func goBack(timeout: Double = 30) async throws -> LoadResult {
        let view = try liveView()
        guard webkit_web_view_can_go_back(view) != 0 else {
            throw HeadwayError(.invalidArgument, "there is no page to go back to")
        }
        return try await navigate(nil, timeout: timeout) { webkit_web_view_go_back(view) }
    }

    /// Goes forward one entry in the history.
    @discardableResult
    public func goForward(timeout: Double = 30) async throws -> LoadResult {
        let view = try liveView()
        guard webkit_web_view_can_go_forward(view) != 0 else {
            throw HeadwayError(.invalidArgument, "there is no page to go forward to")
        }
        return try await navigate(nil, timeout: timeout) { webkit_web_view_go_forward(view) }
    }

    /// Stops the current load; a pending `load` then fails.
    public func stop() {
        tracker.current?.stopRequested = true
        if let view = view?.pointer { webkit_web_view_stop_loading(view) }
    }

    /// Navigates to a redirect's target for the booster's handler, as the same navigation.
    func followMainFrameRedirect(to target: URL) {
        guard let view = view?.pointer else { return }
        tracker.redirecting = target
        webkit_web_view_load_uri(view, MirrorScheme.mirror(target).absoluteString)
    }

    /// Kills the page's web process, as a crash would; useful to test crash handling.
    public func terminateWebProcess() {
        if let view = view?.pointer { webkit_web_view_terminate_web_process(view) }
    }

    private func navigate(_ requested: URL?, timeout: Double, start: () -> Void) async throws -> LoadResult {
        console.removeAll()
        errors.removeAll()
        if let booster, let view = view?.pointer {
            // A new navigation cancels prefetch work that no longer serves it (the seed's separate()).
            booster.prefetcher.cancel()
            booster.handler.resetStats(forView: UnsafeMutableRawPointer(view))
        }
        let record = tracker.begin(requested)
        start()
        return try await finish(record, timeout: timeout)
    }

    /// Waits for `record` to complete, follows the client redirects the page makes during or
    /// right after its load, then gathers the result. `timeout` bounds the whole chain.
    func finish(_ first: NavigationTracker.Record, timeout: Double) async throws -> LoadResult {
        let timeout = Seconds.clamp(timeout)
        let deadline = Engine.now() + timeout * 1000
        var record = first
        while true {
            try await wait(for: record, until: deadline, timeout: timeout)
            var probe = try? await JavaScriptCall.callAsyncFunction(try liveView(), PageScripts.timing, arguments: [:],
                                                                    sourceURI: nil, timeout: 10, what: "the timing probe")
            if probe?["navigated"] != nil { probe = nil }
            if record.redirects.count < 20, let next = await clientRedirect(after: record, probe: probe, deadline: deadline) {
                record = next
                continue
            }
            return try collectResult(record, probe: probe ?? .null)
        }
    }

    private func wait(for record: NavigationTracker.Record, until deadline: Double, timeout: Double) async throws {
        let timer = Task { @EngineActor [weak self] in
            try await Task.sleep(for: .clamped(seconds: (deadline - Engine.now()) / 1000))
            guard let self, self.tracker.timeOut(record, after: timeout) else { return }
            self.stop()
        }
        await tracker.wait(record)
        timer.cancel()
        if let error = record.error {
            if tracker.awaitingClientRedirect === record { tracker.awaitingClientRedirect = nil }
            throw error
        }
    }

    /// The record of a navigation the page started right after `record`'s load (a script in
    /// its load handler or a task after it, or a meta refresh of at most 1 s), or nil.
    private func clientRedirect(after record: NavigationTracker.Record, probe: JSONValue?, deadline: Double) async -> NavigationTracker.Record? {
        defer { if tracker.awaitingClientRedirect === record { tracker.awaitingClientRedirect = nil } }
        if let current = tracker.current, current !== record, current.redirects.count > record.redirects.count {
            return current
        }
        let finishedAt = record.origin + (record.finished ?? 0)
        let navigated = record.pageNavigation.map { $0.at >= finishedAt } ?? false
        let refresh = probe?["metaRefresh"]?.doubleValue
        guard tracker.awaitingClientRedirect === record, navigated || refresh != nil || probe == nil else { return nil }
        // decide-policy reports frame navigations too: a main-frame one starts within a moment.
        let grace = min((refresh ?? 0) + 0.3, max(0, (deadline - Engine.now()) / 1000))
        guard let next = await tracker.nextRecord(after: record, within: grace),
              next.redirects.count > record.redirects.count else { return nil }
        return next
    }

    func liveView() throws -> UnsafeMutablePointer<WebKitWebView> {
        guard let view = view?.pointer else { throw HeadwayError(.closed, "the page is closed") }
        return view
    }

    // MARK: Teardown

    /// Destroys the web view. Pending loads and scripts fail; the page cannot be used again.
    public func close() {
        guard let view else { return }
        viewSignals?.disconnectAll()
        managerSignals?.disconnectAll()
        viewSignals = nil
        managerSignals = nil
        webkit_web_view_stop_loading(view.pointer)
        booster?.handler.resetStats(forView: UnsafeMutableRawPointer(view.pointer))
        webkit_user_content_manager_unregister_script_message_handler(contentManager.pointer, "headway")
        if let window { gtk_widget_destroy(window.pointer) }
        self.window = nil
        self.view = nil
        if let record = tracker.current { tracker.fail(record, with: HeadwayError(.closed, "the page was closed")) }
        eventSink.finish()
        for sink in stateSinks.values { sink.finish() }
        stateSinks.removeAll()
        browser?.pageClosed(self)
    }
}
