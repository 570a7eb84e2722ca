/// Where a script of yours runs in a page.
///
/// ```swift
/// // The page's own `JSON` may be replaced; the isolated world's is not.
/// let count = try await page.callAsyncFunction("return document.links.length", in: .isolated)
/// ```
public enum ScriptWorld: Sendable, Hashable {
    /// The page's own JavaScript world: its globals, as its scripts left them.
    case page
    /// Headway's isolated world: the page's DOM, with JavaScript globals of its own that the
    /// page's scripts can neither see nor replace (it lasts as long as the document, so what a
    /// script leaves on `window` there is there for the next). In it,
    /// `headwayPage.call(body, args, {async})` runs the function body `body` in the page's world
    /// (with a resolve callback as last argument when `async` is true; rejected with an error named
    /// `ScriptTimeout` once it has not settled within `timeout` ms, when given) and returns a promise of
    /// its result, JSON-cloned: DOM nodes and windows in the arguments and the result cross as
    /// the same nodes and windows. It needs Headway's web-process extension; without it
    /// `headwayPage` is undefined.
    case isolated

    // WebKit's name for the world: nil for the page's.
    var webKitName: String? {
        switch self {
        case .page: nil
        case .isolated: PageScripts.isolatedWorld
        }
    }
}
