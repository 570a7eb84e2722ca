import CWebKit
import Foundation

extension Page {
    // Locates a snippet that does not parse. The runner's eval reports a parse error at its own
    // call, so WebKit parses the snippet again inside a function that is never called (nothing
    // runs); its error gives the line (JavaScriptCore reports no column for a parse error).
    func locate(_ failure: JSONValue, snippet: Snippet, view: UnsafeMutablePointer<WebKitWebView>,
                timeout: Duration) async throws -> ScriptError {
        let name = failure["name"]?.stringValue ?? "SyntaxError"
        var error = ScriptError(
            message: "\(name): \(failure["message"]?.stringValue ?? "")",
            file: snippet.file,
            line: 0,
            column: 0
        )
        // The same wrapper the runner tried last: async for a snippet with top-level await.
        let open = failure["wrapped"] == .bool(true) ? "(async function () {" : "(function () {"
        do {
            _ = try await bounded {
                try await JavaScriptCall.evaluate(view, open + snippet.source + "\n})", sourceURI: snippet.file,
                                                  timeout: timeout, what: "the script \(snippet.file)")
            }
        } catch let failed as HeadwayError {
            guard let location = failed.gerror.flatMap({ ScriptLocation(parsing: $0.message) }) else { return error }
            error.line = location.line
            if !location.message.isEmpty { error.message = location.message }
        }
        return error
    }
}

// The location WebKit puts in front of a parse error's message: `SOURCE:LINE: MESSAGE`, where
// SOURCE is the page's URL.
struct ScriptLocation: Equatable {
    var line: Int
    var message: String

    init?(parsing text: String) {
        guard let match = text.firstMatch(of: #/:(\d+):\s/#), let line = Int(match.1) else { return nil }
        self.line = line
        message = String(text[match.range.upperBound...])
    }
}
