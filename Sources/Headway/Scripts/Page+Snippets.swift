import CWebKit
import Foundation

extension Page {
    /// Runs a snippet after load: its completion value, or the settled value of a promise it
    /// returns, comes back as JSON. A thrown exception comes back with its file and line. If the
    /// snippet starts a navigation, this waits for it to finish (up to `navigationTimeout`).
    ///
    /// Every failure is in the result's `error`: an exception, a timeout after `timeout`
    /// (a page stuck in JavaScript then loses its web process, so the next load works), a failed
    /// navigation. The only error thrown is `CancellationError`, when the task is cancelled.
    public func run(
        _ snippet: Snippet,
        timeout: Duration = .seconds(30),
        navigationTimeout: Duration = .seconds(30)
    ) async throws -> SnippetResult {
        var result = SnippetResult(file: snippet.file)
        let mark = navigationMark()
        func navigated() -> Bool {
            tracker.navigationSignals != mark.signals || tracker.current !== mark.record
                || tracker.sameDocumentNavigations != mark.sameDocument
        }
        do {
            let view = try await scriptView()
            let envelope = try await runner(snippet, view: view, timeout: timeout)
            try await interpret(envelope, snippet: snippet, view: view, timeout: timeout, into: &result)
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as HeadwayError {
            if navigated() && error.code == .scriptError {
                // The page went away under the snippet: its value is lost, the navigation is not.
                result.value = .undefined
            } else {
                result.error = ScriptError(message: error.gerror == nil ? error.message : error.description,
                                           file: snippet.file, line: 0, column: 0)
            }
        } catch {
            result.error = ScriptError(message: "\(error)", file: snippet.file, line: 0, column: 0)
        }
        do {
            if let load = try await followNavigation(since: mark, until: .load, timeout: navigationTimeout) {
                result.navigatedTo = load.finalURL
                result.navigatedStatus = load.status
            }
        } catch is CancellationError {
            throw CancellationError()
        } catch let error as HeadwayError {
            if result.error == nil {
                result.error = ScriptError(message: "the navigation it started failed: \(error.description)",
                                           file: snippet.file, line: 0, column: 0)
            }
        } catch {}
        try Task.checkCancellation()
        return result
    }

    // The isolated world snippets with `await` run in on a page whose policy forbids eval.
    static let snippetWorld = "headway-snippets"

    // Runs `snippet` in the snippet runner. A navigation that replaces the page ends the call at
    // once: WebKit never settles a call whose page is gone, which would leave it to its timeout.
    private func runner(_ snippet: Snippet, view: UnsafeMutablePointer<WebKitWebView>, world: String? = nil,
                        timeout: Duration) async throws -> JSONValue {
        var waiter: Int?
        let secret = SnippetInput.begin(for: self)
        defer {
            SnippetInput.end(secret)
            if let waiter { tracker.forgetCommitWaiter(waiter) }
        }
        return try await bounded {
            try await JavaScriptCall.callAsyncFunction(
                view, PageScripts.snippetRunner,
                arguments: ["source": snippet.source, "file": snippet.file, "inputSecret": secret],
                world: world, sourceURI: "headway-runner.js", timeout: timeout, what: "the script \(snippet.file)",
                abandonOn: { end in waiter = self.tracker.onNextCommit(end) })
        }
    }

    private func interpret(_ envelope: JSONValue, snippet: Snippet, view: UnsafeMutablePointer<WebKitWebView>,
                           timeout: Duration, isolated: Bool = false, into result: inout SnippetResult) async throws {
        guard let text = envelope.stringValue, let parsed = try? JSONValue(json: text) else {
            throw HeadwayError(.scriptError, "the snippet runner returned an unexpected value: \(envelope)")
        }
        if parsed["evalBlocked"] != nil, snippet.source.contains("await"), !isolated {
            // The page's Content-Security-Policy forbids eval, which the runner needs for
            // top-level await. An isolated world is not bound by it: the snippet sees the page's
            // DOM there, not its JavaScript globals.
            let isolated = try await runner(snippet, view: view, world: Self.snippetWorld, timeout: timeout)
            try await interpret(isolated, snippet: snippet, view: view, timeout: timeout, isolated: true, into: &result)
        } else if parsed["evalBlocked"] != nil {
            // The page's Content-Security-Policy forbids eval: evaluate directly in the page's
            // world (its completion value, but no promise awaiting).
            result.value = try await bounded {
                try await JavaScriptCall.evaluate(view, snippet.source, sourceURI: snippet.file,
                                                  timeout: timeout, what: "the script \(snippet.file)")
            }
        } else if let failure = parsed["parseError"] {
            result.error = try await locate(failure, snippet: snippet, view: view, timeout: timeout)
        } else if let error = parsed["error"] {
            let name = error["name"]?.stringValue ?? "Error"
            let message = error["message"]?.stringValue ?? ""
            let file = error["file"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? snippet.file
            result.error = ScriptError(message: "\(name): \(message)", file: file,
                                       line: error["line"]?.intValue ?? 0, column: error["column"]?.intValue ?? 0)
        } else if parsed["undefined"] != nil {
            result.value = .undefined
        } else {
            result.value = parsed["value"] ?? .null
        }
    }
}
