import Foundation
import Headway

extension Session {
    enum ScriptMode: String { case atom, sync, async }

    // Calls `function` (JavaScript source of a function expression) in the current browsing
    // context with `arguments` (JSON, element references revived), and returns its JSON clone.
    // An atom reads or changes the DOM in milliseconds; a page that has not answered one within
    // the script timeout, but at least `atomFloor` (a busy machine's delay is no page's fault)
    // and at most `atomLimit`, is stuck.
    package func callAtom(_ function: String, _ arguments: [JSONValue] = [], timeout: Duration? = nil)
        async throws -> JSONValue {
        try await call(function: function, source: nil, arguments: arguments, mode: .atom,
                       timeout: timeout ?? min(max(timeouts.scriptDuration, Self.atomFloor), Self.atomLimit))
    }

    nonisolated static let atomFloor: Duration = .seconds(5)
    nonisolated static let atomLimit: Duration = .seconds(30)

    // Runs a user's script body (Execute Script or Execute Async Script) in the page's world. The
    // script timeout is timed in the page; the call's own bound, a moment longer, catches a page
    // that does not answer at all.
    // `target`, a window's handle and a frame path, runs it there instead of in the current
    // window and frame, leaving those as they are (BiDi's scripts run beside other commands).
    // `nextTask`: it answers one task of the page later, so that a navigation it scheduled has
    // asked for its policy (classic Execute Script follows it; BiDi's scripts do not wait).
    func runUserScript(_ script: String, _ arguments: [JSONValue], async: Bool, sandbox: String? = nil,
                       at target: (handle: String, frames: [JSONValue])? = nil,
                       nextTask: Bool = false) async throws -> JSONValue {
        try await call(function: "null", source: script, arguments: arguments, mode: async ? .async : .sync,
                       timeout: timeouts.scriptDuration + Self.atomFloor, sandbox: sandbox, at: target,
                       nextTask: nextTask)
    }

    // A read in the page's world (Get Element Property), bounded as an atom is.
    func readInPage(_ script: String, _ arguments: [JSONValue]) async throws -> JSONValue {
        try await call(function: "null", source: script, arguments: arguments, mode: .sync,
                       timeout: min(max(timeouts.scriptDuration, Self.atomFloor), Self.atomLimit))
    }

    private func call(
        function: String, source: String?, arguments: [JSONValue], mode: ScriptMode, timeout: Duration,
        sandbox: String? = nil, at target: (handle: String, frames: [JSONValue])? = nil, nextTask: Bool = false
    ) async throws -> JSONValue {
        let page = try target.map { target throws(WebDriverError) in
            syncWindows()
            guard let window = windows.first(where: { $0.handle == target.handle }) else {
                throw WebDriverError(.noSuchWindow, "the window \(target.handle) was closed")
            }
            return window.page
        } ?? currentPage()
        let framePath = target?.frames ?? framePath
        let currentHandle = target?.handle ?? currentHandle
        let body = "const F = (\(function));\n" + ScriptRuntime.prelude
        // At most a day: setTimeout takes a 32-bit count of milliseconds.
        let inPage = timeouts.script.map { min($0, Int(Limits.longestWait / .milliseconds(1))) }
        let result: JSONValue
        do {
            let arguments: [String: JSONValue] = [
                "a": .array(arguments), "p": .array(framePath), "h": .string(currentHandle ?? ""),
                "m": .string(mode.rawValue), "s": source.map(JSONValue.string) ?? .null,
                "t": inPage.map { .number(Double($0)) } ?? .null, "w": sandbox.map(JSONValue.string) ?? .null,
                "n": .bool(nextTask),
            ]
            // A user prompt the script opens ends the call with null, as in WebKitWebDriver.
            result = try await page.unlessDialogOpens {
                try await page.callAsyncFunction(body, arguments: arguments, in: .isolated, timeout: timeout)
            } ?? ["value": .null]
        } catch let error as HeadwayError where error.code == .scriptTimeout || error.code == .timeout {
            // The library says what it did about a page that did not answer.
            let done = page.endedWebProcess != nil
                ? "; the page was stuck in JavaScript, so its web process was terminated: navigate to load a page again"
                : ""
            guard mode != .atom else {
                let ms = Int(timeout / .milliseconds(1))
                throw WebDriverError(.timeout, "the page did not answer within \(ms) ms" + done)
            }
            throw WebDriverError(.scriptTimeout, "the script did not finish within the script timeout "
                + "(\(timeouts.script.map { "\($0) ms" } ?? "none"))" + done)
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
