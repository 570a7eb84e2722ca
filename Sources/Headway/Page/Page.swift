import CHeadwayShims
import CWebKit
public import Foundation

/// One web view: load pages, run JavaScript, read state and timing.
///
/// ```swift
/// let server = try await HTTPServer(root: site)   // serves the folder `site` on loopback
/// let result = try await page.load(await server.url.appendingPathComponent("index.html"))
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

    /// Whether a load that ends at the load event also waits (at most 1 s, within its timeout)
    /// while a page-icon request WebKit started by then is in flight, so that a page closed right
    /// after its load still made the requests a browser would. True by default; a client that
    /// keeps the page open (the WebDriver server) turns it off to return at the load event.
    public var waitsForPageIcon = true

    /// Why the page's web process ended, while the page shows nothing: from the end (a crash,
    /// the memory limit, a page stuck in JavaScript that Headway terminated) until the next load
    /// commits. Scripts then fail at once with `.engine`.
    public internal(set) var endedWebProcess: WebProcessTermination?

    /// The result of the page's latest load, however it started: Headway's (`load`, `reload`,
    /// history) or the page's own (a link, a form, a script, a refresh), followed or not. After a
    /// same-document navigation that Headway asked for or followed (`load` of a fragment, history,
    /// `followNavigation`), it is the document's load at the new URL, with `isSameDocument`; one
    /// the page made while nobody followed changes only `url`.
    public internal(set) var latestLoad: LoadResult?

    /// The latest observable state. `stateUpdates()` streams every change.
    public internal(set) var state = PageState(url: nil, title: "", isLoading: false, estimatedProgress: 0,
                                              canGoBack: false, canGoForward: false)
    /// The URL the page shows now, or nil before the first load.
    public var url: URL? { state.url }
    /// The page's title now.
    public var title: String { state.title }
    /// Whether a load is running.
    public var isLoading: Bool { state.isLoading }
    /// WebKit's estimate of the running load's progress, 0 to 1.
    public var estimatedProgress: Double { state.estimatedProgress }

    /// Every event since the page was created, in order, buffered so none is lost before you
    /// iterate (bounded to the newest 10,000 to keep long runs flat).
    public nonisolated let events: AsyncStream<PageEvent>

    /// Console messages and uncaught errors since the last navigation request: the first
    /// `Page.keptEntries` of each. `consoleTotal` and `errorsTotal` count them all.
    public internal(set) var console: [ConsoleMessage] = []
    /// Uncaught errors and unhandled rejections since the last navigation request: the first
    /// `Page.keptEntries`.
    public internal(set) var errors: [PageError] = []
    /// How many console messages the page logged since the last navigation request, kept or not.
    public internal(set) var consoleTotal = 0
    /// How many uncaught errors the page had since the last navigation request, kept or not.
    public internal(set) var errorsTotal = 0
    // Requests sent so far (each one's id), and those not yet ended, by WebKit resource.
    var requestCount = 0
    var openRequests: [UInt: ResourceRequest] = [:]
    // The latest requests that ended with a response, with WebKit's resource, for `responseBody`.
    var endedResources: [(id: Int, resource: GObjectRef<WebKitWebResource>)] = []
    /// How many console messages, and how many errors, a page keeps per navigation.
    public static let keptEntries = 10_000
    /// JavaScript dialogs the page opened since the last navigation request, with their answers.
    public internal(set) var dialogs: [JavaScriptDialog] = []
    /// How this page answers `confirm()` and `prompt()`; starts as the browser's
    /// `Configuration.dialogs`.
    public var dialogPolicy: DialogPolicy

    weak var browser: Browser?
    var booster: Booster? { browser?.booster }
    // The booster's state for this page's view, while the booster is on; it goes with the page.
    var pageBooster: PageBooster?
    let tracker = NavigationTracker()
    let network = NetworkActivity()
    private(set) var chain: ChainingDelegate!
    let eventSink: AsyncStream<PageEvent>.Continuation
    var stateSinks: [UUID: AsyncStream<PageState>.Continuation] = [:]
    var view: GObjectRef<WebKitWebView>?
    // Decides for each request the page is about to send (`setRequestInterceptor`).
    var requestInterceptor: RequestInterceptor?
    // How many of its requests wait for that interceptor now.
    var heldRequests = 0
    // Answers the credentials servers ask its loads for (`setAuthenticationHandler`).
    var authenticationHandler: AuthenticationHandler?
    var window: GObjectRef<GtkWidget>?
    var contentManager: GObjectRef<WebKitUserContentManager>
    // Scripts `addInitScript` added: a prerendered view never ran them, so it is not shown.
    var addedInitScripts: [InitScript] = []
    // Their user scripts, by id.
    var initScriptObjects: [Int: [UserScript]] = [:]
    // The latest check of whether the web process still runs JavaScript (after a timeout).
    var responsiveness: ResponsivenessCheck?
    // What the page runs in the background; cancelled on close.
    let tasks = PageTasks()
    var viewSignals: SignalConnections?
    // Holds the web process to `Configuration.webProcessMemoryLimit`, when one is set.
    var memoryWatch: MemoryWatch?
    var managerSignals: SignalConnections?
    // The dialog held open for the client, with `holdsDialogs`.
    let dialogHold = DialogHold()
    // Popups: the page that opened this one, the pages this one opened, and the pages sharing
    // a web process with it through either (see Page+Popups.swift).
    weak var openerPage: Page?
    var opened: [WeakPage] = []
    var family: PageFamily?

    init(browser: Browser, delegate: (any NavigationDelegate)?, openedBy opener: Page? = nil) {
        self.browser = browser
        dialogPolicy = opener?.dialogPolicy ?? browser.configuration.dialogs
        (events, eventSink) = AsyncStream.makeStream(of: PageEvent.self, bufferingPolicy: .bufferingNewest(10_000))
        let parts = WebViewParts(browser: browser, relatedTo: opener?.view?.pointer,
                                 addedInitScripts: opener?.addedInitScripts ?? [])
        addedInitScripts = opener?.addedInitScripts ?? []
        initScriptObjects = parts.addedScripts
        openerPage = opener
        contentManager = parts.manager
        let view = parts.view
        self.view = view
        self.window = parts.window

        // Under the scheme handler, Resource Timing has no entries: the load's requests are kept
        // for `ResourceSummary.handled`.
        network.recording = browser.configuration.recordsResources || browser.booster != nil
        chain = ChainingDelegate(tracker: tracker) { [weak self] event in self?.emit(event) }
        chain.user = delegate
        tracker.sameDocumentHandler = { [weak self] url in
            guard let self else { return }
            self.chain.page(self, didNavigateWithinDocument: url)
        }
        if browser.booster != nil { pageBooster = PageBooster(view: view.pointer, owner: self) }
        let target = WeakPage(self)
        viewSignals = PageSignals.connect(view: view, target: target)
        managerSignals = PageSignals.connect(manager: contentManager, target: target)
        if let limit = browser.memoryLimit, limit > 0 {
            memoryWatch = MemoryWatch(limitMB: limit, page: self)
        }
    }

    isolated deinit {
        close()
    }

    func liveView() throws -> UnsafeMutablePointer<WebKitWebView> {
        guard let view = view?.pointer else { throw HeadwayError(.closed, "the page is closed") }
        return view
    }

    // MARK: Teardown

    /// Destroys the web view and terminates its web process. Pending loads and scripts fail
    /// with `.closed`; the page cannot be used again.
    public func close() {
        tasks.cancelAll()
        guard let view else { return }
        // Before the view goes: a dialog held open is closed, and never touched again.
        dialogHold.release()
        viewSignals?.disconnectAll()
        managerSignals?.disconnectAll()
        viewSignals = nil
        managerSignals = nil
        memoryWatch?.stop()
        stopIntercepting()
        endedResources.removeAll()
        webkit_web_view_stop_loading(view.pointer)
        // A web process spinning in JavaScript would otherwise run on for seconds after its
        // view (or Headway itself) is gone; unless a popup or opener still open shares it.
        if family?.leave(self) ?? true { webkit_web_view_terminate_web_process(view.pointer) }
        if let pageBooster { booster?.pageClosed(pageBooster) }
        pageBooster = nil
        webkit_user_content_manager_unregister_script_message_handler(contentManager.pointer, "headway")
        WebViewParts.releaseInternalWidgets(of: view.pointer)
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
