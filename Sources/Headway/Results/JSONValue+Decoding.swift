public import Foundation

extension JSONValue {
    /// Decodes this value as `type` with `JSONDecoder` (`undefined` decodes as JSON `null`).
    /// Throws `.scriptError` naming what did not fit when the value has another shape.
    ///
    /// ```swift
    /// struct Link: Decodable { var href: String; var text: String }
    /// let links = try await page.evaluate("[...document.links].map(a => ({href: a.href, text: a.text}))")
    ///     .decode(as: [Link].self)
    /// ```
    public func decode<T: Decodable>(as type: T.Type = T.self, using decoder: JSONDecoder = JSONDecoder()) throws -> T {
        do {
            return try decoder.decode(T.self, from: JSONEncoder().encode(self))
        } catch let error as DecodingError {
            throw HeadwayError(.scriptError, "the script's value is not a \(T.self): \(Self.describe(error))")
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
             .dataCorrupted(let context):
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return (path.isEmpty ? "" : "at \(path): ") + context.debugDescription
        @unknown default:
            return "\(error)"
        }
    }
}

extension Page {
    /// Evaluates `script` and decodes its value as `type`; errors as for `evaluate(_:timeout:)`,
    /// and `.scriptError` when the value does not decode.
    ///
    /// ```swift
    /// let count = try await page.evaluate("document.links.length", as: Int.self)
    /// ```
    public func evaluate<T: Decodable>(
        _ script: String,
        as type: T.Type,
        timeout: Duration = .seconds(30)
    ) async throws -> T {
        try await evaluate(script, timeout: timeout).decode(as: type)
    }
}
