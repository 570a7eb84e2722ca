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
    /// The page opened a window (`window.open`, a `target=_blank` link or form): the new page,
    /// already loading. The browser holds it until it is closed (see `Page.openedPages`).
    case popup(Page)
    /// The page, a popup, called `window.close()`: Headway closed it, and the stream ends.
    case closedByScript
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
    /// The message's level: `log`, `info`, `warn`, `error` or `debug` (the method called, or for
    /// the others: `assert` is `error`, `trace` is `debug`, `table`, `dir`, `dirxml`, `count`,
    /// `timeLog` and `timeEnd` are `log`).
    public var level: String
    /// The arguments, each as a string or JSON, joined by spaces (for `assert`, those after the
    /// condition; for `count`, `timeLog` and `timeEnd`, the label and its count or time).
    public var text: String
    /// The console method called (`log`, `assert`, `timeEnd`, …). Not part of this type's JSON.
    public var method: String
    /// The arguments as WebDriver BiDi remote values: primitives with their value (`{"type":
    /// "number", "value": "NaN"}`), arrays, objects, maps and sets two levels deep, regexps and
    /// dates with theirs, other objects by their type alone (`{"type": "promise"}`); at most 256
    /// values a call and 1,024 characters a string. Not part of this type's JSON.
    public var arguments: [JSONValue]

    /// A message logged at `level` (the method of that name) with `text` as its one argument.
    public init(level: String, text: String) {
        self.init(level: level, text: text, method: level, arguments: [["type": "string", "value": .string(text)]])
    }

    /// A message of `method` at `level` with its arguments as remote values.
    public init(level: String, text: String, method: String, arguments: [JSONValue]) {
        self.level = level
        self.text = text
        self.method = method
        self.arguments = arguments
    }

    private enum CodingKeys: String, CodingKey { case level, text }

    /// Decodes the JSON `encode(to:)` writes: the method is the level, with no arguments.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(level: try c.decode(String.self, forKey: .level), text: try c.decode(String.self, forKey: .text))
    }

    /// The JSON `headway load` prints for a message: its `level` and `text`.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(level, forKey: .level)
        try c.encode(text, forKey: .text)
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
