public import Foundation

/// Receives a page's navigation callbacks. Every method has a default that does nothing, so a
/// delegate implements only what it needs. Headway's own delegate sees each callback first and
/// then forwards it, in order, to yours.
///
/// A page holds its delegate weakly, as WebKit's views do: keep your own strong reference for as
/// long as the page should report to it. A delegate created inline (`newPage(delegate: Log())`)
/// is freed at once and gets nothing.
///
/// ```swift
/// final class Log: NavigationDelegate {
///     func page(_ page: Page, didFinishNavigation url: URL) { print("finished", url) }
/// }
/// let log = Log()                                   // kept for the page's lifetime
/// let page = try await browser.newPage(delegate: log)
/// ```
@EngineActor
public protocol NavigationDelegate: AnyObject, Sendable {
    /// A main-frame navigation started (provisional load).
    func page(_ page: Page, didStartNavigation url: URL)
    /// The main-frame navigation was redirected to `url`.
    func page(_ page: Page, didRedirectNavigation url: URL)
    /// The main frame committed: the first bytes of the new document arrived.
    func page(_ page: Page, didCommitNavigation url: URL)
    /// The main frame finished loading (after the load event).
    func page(_ page: Page, didFinishNavigation url: URL)
    /// The main-frame navigation failed.
    func page(_ page: Page, didFailNavigation url: URL?, error: HeadwayError)
    /// The main frame navigated within its document, to `url`: a fragment (a load of the page's
    /// URL with another fragment, a link, `location.hash`) or the history API (`pushState`,
    /// `replaceState`, a traversal within the document). No load follows.
    func page(_ page: Page, didNavigateWithinDocument url: URL)
    /// A navigation of the page is over and measured, however it started: its result, as
    /// `Page.latestLoad` now has it.
    func page(_ page: Page, didLoad result: LoadResult)
    /// A load given `FilmstripOptions` ended its recording: the frames and what they show
    /// (`result.filmstrip` and `result.visualMetrics`), once the view was stable after the load.
    func page(_ page: Page, didRecordFilmstrip result: LoadResult)
    /// Decide whether a navigation may go ahead. Return `nil` to leave it to Headway;
    /// any other answer wins.
    func page(_ page: Page, decidePolicyFor action: NavigationAction) -> NavigationPolicy?
    /// The page started loading a resource (the main document or a subresource).
    func page(_ page: Page, didStartLoadingResource url: URL, method: String)
    /// The main frame's document fired DOMContentLoaded.
    func page(_ page: Page, didLoadDOMContent url: URL?)
    /// The page opened a dialog that `Page.holdsDialogs` keeps open until `closeDialog` answers
    /// it (`answer` is still null).
    func page(_ page: Page, didOpenDialog dialog: JavaScriptDialog)
    /// The page asked for a file picker; Headway answered it as cancelled (`FileChooser`).
    func page(_ page: Page, didOpenFileChooser chooser: FileChooser)
    /// A script posted `{"kind": "message", "data": ...}` (as JSON text) to the `headway` script
    /// message handler, `window.webkit.messageHandlers.headway`: an init script can hand data to
    /// Swift this way. The page's own scripts can post too, so treat `data` as the page's word.
    func page(_ page: Page, didPostMessage data: JSONValue)
    /// The page sent a request (the main document's or a subresource's), with its headers.
    func page(_ page: Page, didSendRequest request: ResourceRequest)
    /// The response to a request the page sent began: its status and headers arrived, its body
    /// may not have (`request.ended` is nil). Not every request gets one before it ends.
    func page(_ page: Page, didReceiveResponse request: ResourceRequest)
    /// A request the page sent ended: with its response, or its failure.
    func page(_ page: Page, didEndRequest request: ResourceRequest)
    /// The web process of this page ended; the page shows nothing until the next load.
    func page(_ page: Page, webProcessDidTerminate reason: WebProcessTermination)
}

extension NavigationDelegate {
    /// Does nothing by default.
    public func page(_ page: Page, didStartNavigation url: URL) {}
    /// Does nothing by default.
    public func page(_ page: Page, didRedirectNavigation url: URL) {}
    /// Does nothing by default.
    public func page(_ page: Page, didCommitNavigation url: URL) {}
    /// Does nothing by default.
    public func page(_ page: Page, didFinishNavigation url: URL) {}
    /// Does nothing by default.
    public func page(_ page: Page, didFailNavigation url: URL?, error: HeadwayError) {}
    /// Does nothing by default.
    public func page(_ page: Page, didNavigateWithinDocument url: URL) {}
    /// Does nothing by default.
    public func page(_ page: Page, didLoad result: LoadResult) {}
    /// Does nothing by default.
    public func page(_ page: Page, didRecordFilmstrip result: LoadResult) {}
    /// Returns nil by default: Headway decides.
    public func page(_ page: Page, decidePolicyFor action: NavigationAction) -> NavigationPolicy? { nil }
    /// Does nothing by default.
    public func page(_ page: Page, didStartLoadingResource url: URL, method: String) {}
    /// Does nothing by default.
    public func page(_ page: Page, didLoadDOMContent url: URL?) {}
    /// Does nothing by default.
    public func page(_ page: Page, didOpenDialog dialog: JavaScriptDialog) {}
    /// Does nothing by default.
    public func page(_ page: Page, didOpenFileChooser chooser: FileChooser) {}
    /// Does nothing by default.
    public func page(_ page: Page, didPostMessage data: JSONValue) {}
    /// Does nothing by default.
    public func page(_ page: Page, didSendRequest request: ResourceRequest) {}
    /// Does nothing by default.
    public func page(_ page: Page, didReceiveResponse request: ResourceRequest) {}
    /// Does nothing by default.
    public func page(_ page: Page, didEndRequest request: ResourceRequest) {}
    /// Does nothing by default.
    public func page(_ page: Page, webProcessDidTerminate reason: WebProcessTermination) {}
}

/// A navigation waiting for a policy decision.
public struct NavigationAction: Sendable, Equatable {
    /// A navigation of the page itself, or one that asks for a new window (`target=_blank`,
    /// `window.open`).
    public enum Kind: String, Sendable { case navigation, newWindow }
    /// Whether it navigates the page or asks for a new window.
    public var kind: Kind
    /// Where it goes (mirror schemes made http(s) again).
    public var url: URL
    /// The request method: GET, or POST for a form.
    public var method: String
    /// True when a user gesture (or a synthetic click) started it.
    public var isUserGesture: Bool
}

/// The answer to a `NavigationAction`.
public enum NavigationPolicy: Sendable, Equatable {
    case allow, cancel
}

/// Why a web process ended.
public enum WebProcessTermination: String, Sendable {
    case crashed, exceededMemoryLimit, terminatedByAPI
}
