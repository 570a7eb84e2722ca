import CWebKit
import Foundation

extension Page {
    /// Evaluates a script and returns its completion value. `undefined` comes back as
    /// `.undefined`, never as a failure.
    ///
    /// ```swift
    /// let title = try await page.evaluate("document.title")   // .string("Home")
    /// ```
    public func evaluate(_ script: String, timeout: Double = 30) async throws -> JSONValue {
        let view = try liveView()
        return try await JavaScriptCall.evaluate(view, script, sourceURI: nil, timeout: timeout, what: "the script")
    }

    /// Runs `body` as an async function with `arguments` bound to local names and returns the
    /// settled value of the promise it returns.
    ///
    /// ```swift
    /// let status = try await page.callAsyncFunction("return (await fetch(path)).status", arguments: ["path": "/api"])
    /// ```
    public func callAsyncFunction(_ body: String, arguments: [String: String] = [:], timeout: Double = 30) async throws -> JSONValue {
        let view = try liveView()
        return try await JavaScriptCall.callAsyncFunction(view, body, arguments: arguments, sourceURI: nil,
                                                          timeout: timeout, what: "the function")
    }
}
