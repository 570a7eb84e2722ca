import CHeadwayShims
import CWebKit

// Windows a page opens itself. WebKit asks the opener's view for a new view ("create"), which
// must share its web process ("related-view"): Headway makes a Page of the same browser around
// it, which the browser holds until it closes (no client holds it yet). The popup gets the
// browser's settings and init scripts, the opener's added init scripts and dialog policy, and
// Headway's signals, like any page; the web-process extension is the process's, so it filters
// the popup's requests too. A popup calling `window.close()` ends its page ("close").
extension Page {
    /// The pages this page opened (`window.open`, `target=_blank` links and forms) that are still
    /// open, oldest first. Each is also announced as `PageEvent.popup` on `events`. A browser
    /// keeps at most `Browser.maxOpenPopups` popups open; `window.open` beyond gets `null`.
    public var openedPages: [Page] { opened.compactMap(\.page).filter { !$0.isClosed } }

    /// The page that opened this one, while it is open; nil for a page `Browser.newPage` made.
    public var opener: Page? { openerPage.flatMap { $0.isClosed ? nil : $0 } }

    /// Whether the page is closed: by `close()`, by its browser's `close()`, or by its own
    /// `window.close()` (a popup; `PageEvent.closedByScript`).
    public var isClosed: Bool { view == nil }

    /// Whether the page's scripts may open windows without a user gesture (a click or a key
    /// press), as browsers under automation allow; off by default, as WebKit's popup blocker
    /// has it, so that a page's unsolicited popups do not open pages. A window opened from a
    /// click (`click(selector:)`) or from `evaluate` opens either way. Popups inherit it.
    public var allowsScriptPopups: Bool {
        get {
            guard let view = view?.pointer else { return false }
            return webkit_settings_get_javascript_can_open_windows_automatically(
                webkit_web_view_get_settings(view)) != 0
        }
        set {
            guard let view = view?.pointer else { return }
            webkit_settings_set_javascript_can_open_windows_automatically(
                webkit_web_view_get_settings(view), newValue ? 1 : 0)
        }
    }

    // Answers "create": a new page sharing this page's web process, or nil (no window) once
    // the page or its browser is closed, or the browser has its most popups open.
    func openPopup() -> UnsafeMutablePointer<WebKitWebView>? {
        guard let browser, !browser.isClosed, !isClosed else { return nil }
        guard browser.openPopupCount < Browser.maxOpenPopups else {
            refusePopup()
            return nil
        }
        let popup = Page(browser: browser, delegate: nil, openedBy: self)
        popup.allowsScriptPopups = allowsScriptPopups
        // Its first requests go before its client could set an interceptor: it starts with its
        // opener's.
        if let requestInterceptor { try? popup.setRequestInterceptor(requestInterceptor) }
        let family = self.family ?? PageFamily(self)
        self.family = family
        family.join(popup)
        popup.family = family
        browser.adoptPopup(popup)
        opened.removeAll { $0.page?.isClosed ?? true }
        opened.append(WeakPage(popup))
        emit(.popup(popup))
        return popup.view?.pointer
    }

    // Says once per page, in its console, why its window.open got null.
    private func refusePopup() {
        let note = "Headway: window.open refused: the browser has \(Browser.maxOpenPopups) popups open, "
            + "its most (Browser.maxOpenPopups); close one to open another"
        guard !console.contains(where: { $0.text == note }) else { return }
        noteFromHeadway(note)
    }

    // Answers "close": a popup's `window.close()` ends its page. A page `newPage` made stays
    // open (WebKit lets a page with one history entry close itself): its client owns it.
    func closedByScript() {
        guard family?.isPopup(self) == true, !isClosed else { return }
        emit(.closedByScript)
        close()
    }
}

// Pages related by opening one another, which may share one web process: closing one must not
// terminate a process another still uses.
@EngineActor
final class PageFamily {
    private var members: [WeakPage]
    private let root: ObjectIdentifier

    init(_ root: Page) {
        members = [WeakPage(root)]
        self.root = ObjectIdentifier(root)
    }

    func join(_ page: Page) { members.append(WeakPage(page)) }

    func isPopup(_ page: Page) -> Bool { ObjectIdentifier(page) != root }

    // Forgets `page`; true when no other member is open, so its web process may be ended.
    func leave(_ page: Page) -> Bool {
        members.removeAll { $0.page == nil || $0.page === page }
        return members.allSatisfy { $0.page?.isClosed ?? true }
    }
}

enum PopupSignals {
    static func connect(_ signals: SignalConnections, target: WeakPage) {
        signals.connect("create", unsafeBitCast(onCreate as Create, to: GCallback.self), box: target)
        signals.connect("close", unsafeBitCast(onClose as Close, to: GCallback.self), box: target)
    }
}

private typealias Create =
    @convention(c) (UnsafeMutablePointer<WebKitWebView>?, OpaquePointer?, gpointer?) -> UnsafeMutablePointer<GtkWidget>?
private typealias Close = @convention(c) (UnsafeMutablePointer<WebKitWebView>?, gpointer?) -> Void

private func onCreate(
    _ view: UnsafeMutablePointer<WebKitWebView>?,
    _ action: OpaquePointer?,
    _ data: gpointer?
) -> UnsafeMutablePointer<GtkWidget>? {
    let target = targetPage(data)
    nonisolated(unsafe) var created: UnsafeMutablePointer<WebKitWebView>?
    EngineActor.assumeIsolated { created = target.page?.openPopup() }
    return created.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: GtkWidget.self) }
}

// The view is destroyed later, outside WebKit's signal emission.
private func onClose(_ view: UnsafeMutablePointer<WebKitWebView>?, _ data: gpointer?) {
    let target = targetPage(data)
    Task { @EngineActor in target.page?.closedByScript() }
}
