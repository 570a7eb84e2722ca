import Foundation

extension Page {
    /// Waits until the page's visible text (`document.body.innerText`) contains `text`, watching
    /// the DOM as it changes, and returns at once when it already does. Throws `.timeout` when the
    /// text had not appeared within `timeout`, `.invalidArgument` for empty text, `.scriptError`
    /// when the page navigated away meanwhile, `.closed` for a closed page, and `CancellationError`.
    public func waitFor(text: String, timeout: Duration = .seconds(30)) async throws {
        guard !text.isEmpty else { throw HeadwayError(.invalidArgument, "the text to wait for is empty") }
        let timeout = timeout.clamped
        guard try await waitForContent(.text, text, timeout: timeout) else {
            throw HeadwayError(.timeout, "the text \(text.debugDescription) did not appear within \(timeout.formatted)")
        }
    }

    enum ContentWait: String { case selector, text }

    // Waits, in Headway's isolated world (the page's globals cannot break it), until an element
    // matches the selector or the visible text holds the text; false when not within `timeout`.
    // The page answers at its own deadline; one that has not a moment later is stuck, and the
    // timeout says so (its web process was terminated).
    func waitForContent(_ kind: ContentWait, _ value: String, timeout: Duration) async throws -> Bool {
        let view = try await readyView()
        do {
            return try await JavaScriptCall.callAsyncFunction(
                view, PageScripts.waitForContent,
                arguments: ["kind": kind.rawValue, "value": value, "ms": "\(timeout.milliseconds)"],
                world: PageScripts.world, sourceURI: nil, timeout: (timeout + Page.answerMargin).clamped,
                what: "the \(kind.rawValue) wait") == .bool(true)
        } catch let error as HeadwayError where error.code == .scriptTimeout {
            let what = kind == .text ? "the text \(value.debugDescription) did not appear"
                : "no element matched \(value)"
            throw try await explained(HeadwayError(.timeout, "\(what) within \(timeout.formatted), "
                                                   + "and the page did not answer"))
        } catch is CancellationError {
            checkResponsiveness()
            throw CancellationError()
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
