import CWebKit
import Foundation

extension Page {
    /// Evaluates a script and returns its completion value. `undefined` comes back as
    /// `.undefined`, never as a failure.
    ///
    /// ```swift
    /// let title = try await page.evaluate("document.title")   // .string("Home")
    /// ```
    ///
    /// Throws `.scriptError` for an exception, `.scriptTimeout` when it has not settled within
    /// `timeout` (a page stuck in JavaScript then loses its web process, so the next load
    /// works), `.engine` while the page's web process is gone (`endedWebProcess`), `.closed` for a
    /// closed page. Cancelling the task throws `CancellationError`.
    public func evaluate(_ script: String, timeout: Duration = .seconds(30)) async throws -> JSONValue {
        let view = try await scriptView()
        return try await bounded {
            try await JavaScriptCall.evaluate(view, script, sourceURI: nil, timeout: timeout, what: "the script")
        }
    }

    /// Runs `body` as an async function with `arguments` bound to local names and returns the
    /// settled value of the promise it returns. An argument may be any JSON value: strings,
    /// numbers, booleans, null, arrays and objects arrive as the same JavaScript values.
    /// It runs in the page's own world, or in Headway's isolated one (see `ScriptWorld`).
    /// Errors and cancellation as for `evaluate`; a name that is not a JavaScript identifier
    /// throws `.invalidArgument`.
    ///
    /// ```swift
    /// let status = try await page.callAsyncFunction("return (await fetch(path, {method})).status",
    ///                                               arguments: ["path": "/api", "method": "HEAD"])
    /// let sum = try await page.callAsyncFunction("return a.reduce((x, y) => x + y, 0)", arguments: ["a": [1, 2, 3]])
    /// ```
    public func callAsyncFunction(
        _ body: String,
        arguments: [String: JSONValue] = [:],
        in world: ScriptWorld = .page,
        timeout: Duration = .seconds(30)
    ) async throws -> JSONValue {
        let view = try await scriptView()
        let (strings, prelude) = try JavaScriptArguments.bind(arguments)
        return try await bounded {
            try await JavaScriptCall.callAsyncFunction(view, prelude + body, arguments: strings,
                                                       world: world.webKitName, sourceURI: nil,
                                                       timeout: timeout, what: "the function")
        }
    }

    // Runs a JavaScript call of the user's; after a timeout or a cancellation, makes sure the page
    // is not left stuck in JavaScript.
    func bounded<T>(_ call: () async throws -> T) async throws -> T {
        do {
            return try await call()
        } catch let error as HeadwayError where error.code == .scriptTimeout || error.code == .timeout {
            throw try await explained(error)
        } catch is CancellationError {
            checkResponsiveness()
            throw CancellationError()
        }
    }
}
