public import Foundation

/// Everything a page reports, in order, on `Page.events`.
public enum PageEvent: Sendable {
    case navigationStarted(URL)
    case navigationRedirected(URL)
    case navigationCommitted(URL)
    case navigationFinished(URL)
    case navigationFailed(URL?, HeadwayError)
    case webProcessTerminated(WebProcessTermination)
    case state(PageState)
    case console(ConsoleMessage)
    case pageError(PageError)
    /// The page opened a JavaScript dialog, which Headway answered at once (or, held open with
    /// `Page.holdsDialogs`, which `closeDialog` answered).
    case dialog(JavaScriptDialog)
}

/// The observable state of a page.
public struct PageState: Sendable, Equatable {
    /// The URL shown, or nil before the first load.
    public var url: URL?
    /// The page's title.
    public var title: String
    /// Whether a load is running.
    public var isLoading: Bool
    /// WebKit's estimate of the running load's progress, 0 to 1.
    public var estimatedProgress: Double
    /// Whether there is a history entry to go back to.
    public var canGoBack: Bool
    /// Whether there is a history entry to go forward to.
    public var canGoForward: Bool

    /// A state with each field given.
    public init(
        url: URL?,
        title: String,
        isLoading: Bool,
        estimatedProgress: Double,
        canGoBack: Bool,
        canGoForward: Bool
    ) {
        self.url = url
        self.title = title
        self.isLoading = isLoading
        self.estimatedProgress = estimatedProgress
        self.canGoBack = canGoBack
        self.canGoForward = canGoForward
    }
}

/// One `console.*` call made by the page.
public struct ConsoleMessage: Sendable, Codable, Equatable {
    /// The console method called: `log`, `info`, `warn`, `error` or `debug`.
    public var level: String
    /// The arguments, each as a string or JSON, joined by spaces.
    public var text: String

    /// A message logged at `level`.
    public init(level: String, text: String) {
        self.level = level
        self.text = text
    }
}

/// An uncaught exception or unhandled promise rejection in the page.
public struct PageError: Sendable, Codable, Equatable {
    /// The error's message, e.g. `TypeError: x is undefined`.
    public var message: String
    /// The script's URL, or "" when the engine gives none.
    public var file: String
    /// The line in that script, from 1; 0 when unknown.
    public var line: Int
    /// The column on that line, from 1; 0 when unknown.
    public var column: Int

    /// An error at `file`:`line`:`column`.
    public init(message: String, file: String, line: Int, column: Int) {
        self.message = message
        self.file = file
        self.line = line
        self.column = column
    }
}
