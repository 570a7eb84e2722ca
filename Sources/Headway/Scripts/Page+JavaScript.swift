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
    /// `timeout` seconds (a page stuck in JavaScript then loses its web process, so the next load
    /// works), `.closed` for a closed page. Cancelling the task throws `CancellationError`.
    public func evaluate(_ script: String, timeout: Double = 30) async throws -> JSONValue {
        let view = try await readyView()
        return try await bounded {
            try await JavaScriptCall.evaluate(view, script, sourceURI: nil, timeout: timeout, what: "the script")
        }
    }

    /// Runs `body` as an async function with `arguments` bound to local names and returns the
    /// settled value of the promise it returns. Errors and cancellation as for `evaluate`.
    ///
    /// ```swift
    /// let status = try await page.callAsyncFunction("return (await fetch(path)).status", arguments: ["path": "/api"])
    /// ```
    public func callAsyncFunction(_ body: String, arguments: [String: String] = [:], timeout: Double = 30) async throws -> JSONValue {
        let view = try await readyView()
        return try await bounded {
            try await JavaScriptCall.callAsyncFunction(view, body, arguments: arguments, sourceURI: nil,
                                                       timeout: timeout, what: "the function")
        }
    }

    /// Runs a JavaScript call of the user's; after a timeout or a cancellation, makes sure the page
    /// is not left stuck in JavaScript.
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
