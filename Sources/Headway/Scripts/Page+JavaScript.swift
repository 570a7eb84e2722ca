import CWebKit
public import Foundation

extension Page {
    /// Evaluates a script and returns its completion value. `undefined` comes back as
    /// `.undefined`, never as a failure.
    ///
    /// ```swift
    /// let title = try await page.evaluate("document.title")   // .string("Home")
    /// ```
    public func evaluate(_ script: String, timeout: Double = 30) async throws -> JSONValue {
        let view = try liveView()
        return try await withTimeout(timeout, what: "the script") { cancellable in
            try await JavaScriptCall.evaluate(view, script, sourceURI: nil, cancellable: cancellable)
        }
    }

    /// Runs `body` as an async function with `arguments` bound to local names and returns the
    /// settled value of the promise it returns.
    ///
    /// ```swift
    /// let status = try await page.callAsyncFunction("return (await fetch(path)).status", arguments: ["path": "/api"])
    /// ```
    public func callAsyncFunction(_ body: String, arguments: [String: String] = [:], timeout: Double = 30) async throws -> JSONValue {
        let view = try liveView()
        return try await withTimeout(timeout, what: "the function") { cancellable in
            try await JavaScriptCall.callAsyncFunction(view, body, arguments: arguments, sourceURI: nil, cancellable: cancellable)
        }
    }

    /// Runs `operation` with a GCancellable that is cancelled after `timeout` seconds; the
    /// operation then ends with a timeout error instead of WebKit's cancellation error.
    func withTimeout<T>(_ timeout: Double, what: String,
                        _ operation: (UnsafeMutablePointer<GCancellable>) async throws -> T) async throws -> T {
        let cancellable = g_cancellable_new()!
        defer { g_object_unref(UnsafeMutableRawPointer(cancellable)) }
        let expired = Flag()
        let timer = Task { @EngineActor in
            try await Task.sleep(for: .milliseconds(Int(timeout * 1000)))
            expired.isSet = true
            g_cancellable_cancel(cancellable)
        }
        defer { timer.cancel() }
        do {
            return try await operation(cancellable)
        } catch {
            if expired.isSet {
                throw HeadwayError(.scriptTimeout, "\(what) did not settle within \(formatSeconds(timeout))")
            }
            throw error
        }
    }
}

@EngineActor
final class Flag {
    var isSet = false
}
