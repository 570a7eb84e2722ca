import Foundation
import Headway

// One WebDriver session: its own browser (cookies, storage and cache of its own), its windows
// (one page each), the current window and frame, and its settings. Commands run one at a time.
@EngineActor
package final class Session {
    package struct Window {
        package let handle: String
        package let page: Page
        // The page's load when the window joined the session (a warm page's about:blank).
        let loadBefore: LoadResult?
        // Its position and state, as the rect commands keep them.
        package var frame = WindowFrame()
        // Its BiDi user context: "default" (the session's browser) or one of `userContexts`.
        var userContext = "default"
    }

    package let id: String
    package let browser: Browser
    package let capabilities: Capabilities
    package var timeouts: Timeouts
    package private(set) var windows: [Window] = []
    package internal(set) var currentHandle: String?
    // The frame elements from the top-level document down to the current browsing context.
    package var framePath: [JSONValue] = []
    // The latest navigation of the current window's page, however it started (Navigate To, a
    // click, keys, a script, the page itself), for /headway/timing; nil before the first.
    package var lastLoad: LoadResult? {
        guard let handle = currentHandle, let window = windows.first(where: { $0.handle == handle }),
              !window.page.isClosed, let load = window.page.latestLoad, load != window.loadBefore else { return nil }
        return load
    }
    // Hears every navigation of the session's pages and keeps it for /headway/har.
    private lazy var recorder = LoadRecorder(session: self)
    // The session's navigations for /headway/har (with "har" on): the latest, at most
    // `maxRecordedLoads` loads holding at most `maxRecordedEntries` requests together (the oldest
    // loads go first; the latest load always stays).
    // The latest navigation recorded with "filmstrip": its window's handle, URL, frames and
    // metrics, for /headway/filmstrip (only the latest: frames are large).
    package var lastFilmstrip: (handle: String, url: URL, frames: Filmstrip, metrics: VisualMetrics?)?
    package var loads: [LoadResult] = [] {
        didSet {
            var entries = loads.reduce(0) { $0 + ($1.resourceEntries?.count ?? 0) }
            var drop = 0
            while loads.count - drop > 1,
                  loads.count - drop > Self.maxRecordedLoads || entries > Self.maxRecordedEntries {
                entries -= loads[drop].resourceEntries?.count ?? 0
                drop += 1
            }
            if drop > 0 { loads.removeFirst(drop) }
        }
    }
    package static let maxRecordedLoads = 1000
    package static let maxRecordedEntries = 10_000
    package private(set) var lastUsed = ContinuousClock.now
    package let queue = CommandQueue()
    // Set by the input commands: the keys and buttons held down, released by Release Actions.
    package var inputState = InputState()
    // Its WebDriver BiDi events, when it asked for webSocketUrl (or began with session.new).
    let bidi: BiDiEvents?
    // The user contexts BiDi's browser.createUserContext made, each a browser of its own (cookies,
    // storage and cache apart from the session browser's, the user context "default").
    var userContexts: [(id: String, browser: Browser)] = []
    // Send Alert Text's text for the open prompt, used when it is accepted.
    package var promptText: (dialog: JavaScriptDialog, text: String)?

    package init(
        id: String = UUID().uuidString.lowercased(), browser: Browser, page: Page, capabilities: Capabilities
    ) {
        self.id = id
        self.browser = browser
        self.capabilities = capabilities
        timeouts = capabilities.timeouts
        bidi = capabilities.webSocketUrl ? BiDiEvents() : nil
        add(page)
    }

    // The most windows a session has open, its popups among them: a client or a page that opens
    // windows without end would otherwise take the machine's memory (each has its view, its
    // share of the web process and Xvfb's pixmaps), as the popups of a page are bounded too.
    package static let maxWindows = 50

    // Throws `unsupported operation` when the session already has `maxWindows` windows open.
    package func checkRoomForWindow() throws(WebDriverError) {
        syncWindows()
        guard windows.count < Self.maxWindows else {
            throw WebDriverError(.unsupportedOperation, "the session has \(Self.maxWindows) windows open, its most "
                                 + "(Session.maxWindows); close one to open another")
        }
    }

    // Adds a window for `page` and returns its handle (not switching to it).
    @discardableResult
    package func add(_ page: Page, userContext: String = "default") -> String {
        let handle = UUID().uuidString.lowercased()
        // User prompts stay open until a command answers them.
        page.holdsDialogs = true
        // As Chrome and Firefox under automation: a script may open windows without a gesture.
        page.allowsScriptPopups = true
        page.delegate = recorder
        // A window stays open after a navigation: its page-icon request may end on its own.
        page.waitsForPageIcon = false
        windows.append(Window(handle: handle, page: page, loadBefore: page.latestLoad, userContext: userContext))
        bidi?.watch(page, handle: handle, session: self)
        if currentHandle == nil { currentHandle = handle }
        return handle
    }

    package func touch() { lastUsed = .now }

    // The handle of the window showing `page`, if it is one of the session's.
    func handle(of page: Page) -> String? { windows.first { $0.page === page }?.handle }
    // The folder of the files clients uploaded (see Session+Uploads.swift).
    var uploads: URL?

    // Brings `windows` up to date with what the pages did themselves: a window for each page a
    // window's page opened (window.open, target=_blank), in the order they opened, and none for
    // a page that closed itself (window.close).
    package func syncWindows() {
        var known = Set(windows.map { ObjectIdentifier($0.page) })
        var index = 0
        while index < windows.count {
            for page in windows[index].page.openedPages where known.insert(ObjectIdentifier(page)).inserted {
                add(page, userContext: windows[index].userContext)
            }
            index += 1
        }
        windows.removeAll { $0.page.isClosed }
    }

    // The current top-level window's page: "no such window" once it was closed.
    package func currentPage() throws(WebDriverError) -> Page {
        syncWindows()
        guard let handle = currentHandle, let window = windows.first(where: { $0.handle == handle }) else {
            throw WebDriverError(.noSuchWindow,
                                 "the current window was closed: switch to another with Switch To Window")
        }
        return window.page
    }

    // The current window's position and state; setting it keeps the new one.
    package func currentFrame() throws(WebDriverError) -> WindowFrame {
        _ = try currentPage()
        return windows.first { $0.handle == currentHandle }?.frame ?? WindowFrame()
    }

    package func keep(_ frame: WindowFrame) throws(WebDriverError) {
        _ = try currentPage()
        guard let index = windows.firstIndex(where: { $0.handle == currentHandle }) else { return }
        windows[index].frame = frame
    }

    package func switchTo(handle: String) throws(WebDriverError) {
        syncWindows()
        guard windows.contains(where: { $0.handle == handle }) else {
            throw WebDriverError(.noSuchWindow, "no window has the handle \(handle)")
        }
        currentHandle = handle
        framePath = []
    }

    // Closes the current window; the session has no current window until it switches.
    package func closeCurrentWindow() throws(WebDriverError) {
        let page = try currentPage()
        if let handle = currentHandle { bidi?.contextClosed(handle) }
        windows.removeAll { $0.handle == currentHandle }
        currentHandle = nil
        framePath = []
        page.close()
    }

    // Ends the session: every page and the browser.
    package func close() {
        bidi?.stop()
        for window in windows { window.page.close() }
        windows.removeAll()
        currentHandle = nil
        browser.close()
        for context in userContexts { context.browser.close() }
        userContexts.removeAll()
        if let uploads { try? FileManager.default.removeItem(at: uploads) }
        uploads = nil
    }
}

// Runs a session's commands one at a time, in the order they came. The running command runs in
// a task of its own, which `close` (Delete Session, shutdown) and the caller's cancellation (its
// client went away) cancel; a command still waiting leaves the queue when its caller is cancelled,
// and once closed, the commands waiting end with "invalid session id".
@EngineActor
package final class CommandQueue {
    private let turn = AsyncSemaphore(permits: 1)
    private var closed = false
    private var cancelCurrent: (() -> Void)?
    // Whether a command runs or waits.
    package var isBusy: Bool { turn.isBusy }

    func run<T: Sendable>(_ body: @escaping @Sendable @EngineActor () async throws -> T) async throws -> T {
        try await turn.wait()
        defer { turn.signal() }
        // Closed between the turn coming and this task running again.
        guard !closed else { throw Self.deleted }
        let task = Task { @EngineActor in try await body() }
        cancelCurrent = { task.cancel() }
        defer { cancelCurrent = nil }
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }

    // Refuses the waiting and later commands, cancels the running one and waits for it to end,
    // at most `limit` (a command that ignores cancellation is left to end alone).
    func close(within limit: Duration = .seconds(10)) async {
        cancel()
        _ = await turn.waitUntilIdle(within: limit)
    }

    // Refuses the waiting and later commands and cancels the running one, without waiting (shutdown).
    func cancel() {
        closed = true
        turn.close(throwing: Self.deleted)
        cancelCurrent?()
    }

    private static var deleted: WebDriverError { WebDriverError(.invalidSessionID, "the session was deleted") }
}
