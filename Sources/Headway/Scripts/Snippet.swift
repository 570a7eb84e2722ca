public import Foundation

/// A JavaScript snippet file to run in a page.
public struct Snippet: Sendable, Equatable {
    /// The name shown in results and error locations (the file path as given).
    public var file: String
    /// The JavaScript source.
    public var source: String

    /// A snippet named `file` (for error locations) with `source`.
    public init(file: String, source: String) {
        self.file = file
        self.source = source
    }
}

/// What running a snippet gave: a value or an error.
public struct SnippetResult: Sendable, Equatable, Codable {
    /// The snippet's name, as given.
    public var file: String
    /// The completion value, or the settled value of the promise the snippet returned.
    public var value: JSONValue?
    /// Why the snippet failed: an exception, a timeout, a failed navigation; nil when it succeeded.
    public var error: ScriptError?
    /// Where the page ended up when the snippet started a navigation that Headway waited for.
    public var navigatedTo: URL?
    /// The HTTP status of the page that navigation ended on (nil for file:, about: and when
    /// there was no navigation).
    public var navigatedStatus: Int?

    /// Whether the snippet ran without error.
    public var succeeded: Bool { error == nil }

    /// A result with each field given.
    public init(file: String, value: JSONValue? = nil, error: ScriptError? = nil, navigatedTo: URL? = nil,
                navigatedStatus: Int? = nil) {
        self.file = file
        self.value = value
        self.error = error
        self.navigatedTo = navigatedTo
        self.navigatedStatus = navigatedStatus
    }

    private enum CodingKeys: String, CodingKey { case file, value, error, navigatedTo, navigatedStatus }

    /// `file`, then `error` or `value` (`null` for none), then `navigatedTo` and
    /// `navigatedStatus` when the snippet navigated.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(file, forKey: .file)
        if let error {
            try c.encode(error, forKey: .error)
        } else {
            try c.encode(value ?? .null, forKey: .value)
        }
        if let navigatedTo {
            try c.encode(navigatedTo, forKey: .navigatedTo)
            try c.encode(navigatedStatus, forKey: .navigatedStatus)
        }
    }
}

/// A snippet's failure: a thrown exception (with its location), a timeout, or a navigation failure.
public struct ScriptError: Sendable, Equatable, Codable, CustomStringConvertible {
    /// What went wrong, e.g. `Error: kaput` or `the script did not settle within 10 s`.
    public var message: String
    /// The file it happened in: the snippet's, or a page script's URL.
    public var file: String
    /// The line, from 1; 0 when unknown.
    public var line: Int
    /// The column, from 1; 0 when unknown.
    public var column: Int

    /// `file:line:column: message`, or `file: message` without a line.
    public var description: String {
        line > 0 ? "\(file):\(line):\(column): \(message)" : "\(file): \(message)"
    }

    /// An error at `file`:`line`:`column`.
    public init(message: String, file: String, line: Int, column: Int) {
        self.message = message
        self.file = file
        self.line = line
        self.column = column
    }
}
