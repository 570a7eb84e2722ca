import Foundation

extension Page {
    /// Waits until the page's visible text (`document.body.innerText`) contains `text`, watching
    /// the DOM as it changes, and returns at once when it already does. Throws `.timeout` when the
    /// text had not appeared within `timeout`, `.invalidArgument` for empty text, `.scriptError`
    /// when the page navigated away meanwhile, `.closed` for a closed page, and `CancellationError`.
    public func waitFor(text: String, timeout: Duration = .seconds(30)) async throws {
        guard !text.isEmpty else { throw HeadwayError(.invalidArgument, "the text to wait for is empty") }
        let timeout = timeout.clamped
        // In Headway's isolated world, answering at its own deadline; Headway's bound only
        // catches a stuck page.
        let view = try await readyView()
        let answer = try await bounded {
            try await JavaScriptCall.callAsyncFunction(
                view, PageScripts.waitForText, arguments: ["text": text, "ms": "\(timeout.milliseconds)"],
                world: PageScripts.world, sourceURI: nil, timeout: (timeout + .seconds(5)).clamped,
                what: "the text wait")
        }
        guard answer == .bool(true) else {
            throw HeadwayError(.timeout, "the text \(text.debugDescription) did not appear within \(timeout.formatted)")
        }
    }

    /// Waits until the JavaScript expression `predicate`, evaluated in the page's own world every
    /// 50 ms (a promise is awaited), is truthy, and returns at once when it already is. Throws
    /// `.timeout` when it was not truthy within `timeout`, `.scriptError` when it throws (a syntax
    /// error included), `.closed` for a closed page, and `CancellationError`.
    public func waitFor(function predicate: String, timeout: Duration = .seconds(30)) async throws {
        let timeout = timeout.clamped
        let deadline = Engine.now() + timeout
        // On its own line, so that a `//` comment ending the expression cannot swallow the rest.
        let body = "return !!(await (\n\(predicate)\n));"
        var note = ""
        while true {
            let left = Engine.now().duration(to: deadline)
            guard left > .zero else { break }
            let view = try await readyView()
            let answer: JSONValue
            do {
                answer = try await bounded {
                    try await JavaScriptCall.callAsyncFunction(view, body, arguments: [:], sourceURI: nil,
                                                               timeout: left, what: "the predicate")
                }
            } catch let error as HeadwayError where error.code == .scriptTimeout {
                // A predicate stuck in JavaScript cost the page its web process: say so.
                if let stuck = error.message.range(of: "; the page was stuck") {
                    note = String(error.message[stuck.lowerBound...])
                }
                break
            }
            if answer == .bool(true) { return }
            try await Task.sleep(for: min(.milliseconds(50), Engine.now().duration(to: deadline).clamped))
        }
        throw HeadwayError(.timeout, "the predicate \(predicate.debugDescription) was not truthy within "
                           + "\(timeout.formatted)" + note)
    }
}
