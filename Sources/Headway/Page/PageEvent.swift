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
    /// The page opened a JavaScript dialog, which Headway answered at once.
    case dialog(JavaScriptDialog)
}

/// The observable state of a page.
public struct PageState: Sendable, Equatable {
    public var url: URL?
    public var title: String
    public var isLoading: Bool
    public var estimatedProgress: Double
    public var canGoBack: Bool
    public var canGoForward: Bool

    public init(url: URL?, title: String, isLoading: Bool, estimatedProgress: Double, canGoBack: Bool, canGoForward: Bool) {
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
    public var level: String
    public var text: String

    public init(level: String, text: String) {
        self.level = level
        self.text = text
    }
}

/// An uncaught exception or unhandled promise rejection in the page.
public struct PageError: Sendable, Codable, Equatable {
    public var message: String
    public var file: String
    public var line: Int
    public var column: Int

    public init(message: String, file: String, line: Int, column: Int) {
        self.message = message
        self.file = file
        self.line = line
        self.column = column
    }
}
