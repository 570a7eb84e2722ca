import Foundation
import Headway

extension Session {
    enum ScriptMode: String { case atom, sync, async }

    // Calls `function` (JavaScript source of a function expression) in the current browsing
    // context with `arguments` (JSON, element references revived), and returns its JSON clone.
    // Headway's own atoms run under the script timeout too, at least 30 s.
    package func callAtom(_ function: String, _ arguments: [JSONValue] = []) async throws -> JSONValue {
        try await call(function: function, source: nil, arguments: arguments, mode: .atom,
                       timeout: max(timeouts.scriptDuration, .seconds(30)))
    }

    // Runs a user's script body (Execute Script or Execute Async Script) in the page's world.
    func runUserScript(_ script: String, _ arguments: [JSONValue], async: Bool) async throws -> JSONValue {
        try await call(function: "null", source: script, arguments: arguments,
                       mode: async ? .async : .sync, timeout: timeouts.scriptDuration)
    }

    private func call(
        function: String, source: String?, arguments: [JSONValue], mode: ScriptMode, timeout: Duration
    ) async throws -> JSONValue {
        let page = try currentPage()
        let body = "const F = (\(function));\n" + ScriptRuntime.prelude
        let result: JSONValue
        do {
            let arguments: [String: JSONValue] = [
                "a": .array(arguments), "p": .array(framePath), "h": .string(currentHandle ?? ""),
                "m": .string(mode.rawValue), "s": source.map(JSONValue.string) ?? .null,
            ]
            // A user prompt the script opens ends the call with null, as in WebKitWebDriver.
            result = try await page.unlessDialogOpens {
                try await page.callAsyncFunction(body, arguments: arguments, in: .isolated, timeout: timeout)
            } ?? ["value": .null]
        } catch let error as HeadwayError where error.code == .scriptTimeout || error.code == .timeout {
            throw WebDriverError(.scriptTimeout, "the script did not finish within the script timeout "
                + "(\(timeouts.script.map { "\($0) ms" } ?? "none"))")
        } catch let error as HeadwayError where error.code == .scriptError {
            throw WebDriverError(.javascriptError, error.message)
        }
        if let code = result["error"]?.stringValue {
            let message = result["message"]?.stringValue ?? code
            throw WebDriverError(ErrorCode(rawValue: code) ?? .javascriptError, message)
        }
        return result["value"] ?? .null
    }

    // An element reference as the protocol writes it.
    package static func elementReference(_ id: String) -> JSONValue {
        [ScriptRuntime.elementKey: .string(id)]
    }
}
