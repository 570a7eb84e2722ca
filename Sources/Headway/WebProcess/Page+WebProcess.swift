import CWebKit
import Foundation

// A running or finished check of whether a page's web process still runs JavaScript.
@EngineActor
final class ResponsivenessCheck {
    // True when the check found the page stuck and terminated its web process.
    let task: Task<Bool, Never>
    var isRunning = true
    init(_ task: Task<Bool, Never>) { self.task = task }
}

extension Page {
    // How long a page may take to answer a trivial script before it counts as stuck.
    static let responsivenessBound: Duration = .seconds(2)

    // How long after its own deadline a script that answers at a deadline (a wait) may take to
    // answer before it has timed out.
    static let answerMargin: Duration = .milliseconds(250)

    // How long a page that did not answer by a timeout then has to answer a trivial script before
    // it counts as stuck: it already missed one deadline, and a timeout is honoured within 1 s.
    static let afterTimeoutBound: Duration = .milliseconds(500)

    /// Kills the page's web process, as a crash would; useful to test crash handling. A pending
    /// load fails with `.engine`; the next load starts a fresh web process.
    public func terminateWebProcess() {
        if let view = view?.pointer { webkit_web_view_terminate_web_process(view) }
    }

    // After a timeout or a cancelled call: finds out whether the page still runs JavaScript (one
    // stuck in `while (true) {}` never answers) and, if not, terminates its web process so the
    // next load gets a fresh one. Runs in the background; `readyView()` waits for it. Returns
    // the running check, or nil for a closed page. `bound` is how long the page has to answer.
    @discardableResult
    func checkResponsiveness(within bound: Duration = Page.responsivenessBound) -> ResponsivenessCheck? {
        if let responsiveness, responsiveness.isRunning { return responsiveness }
        guard view != nil, let task = tasks.start({ [weak self] () -> Bool in
            defer { self?.responsiveness?.isRunning = false }
            // The view is looked up when the check runs: the page may have closed meanwhile.
            guard let self, let view = self.view?.pointer else { return false }
            do {
                _ = try await JavaScriptCall.evaluate(view, "0", sourceURI: nil, timeout: bound,
                                                      what: "the responsiveness probe")
                return false
            } catch let error as HeadwayError where error.code == .scriptTimeout {
                // A dialog held open, or a request held for an interceptor, is why it does not answer.
                guard self.view != nil, self.openDialog == nil, self.heldRequests == 0 else { return false }
                self.terminateWebProcess()
                return true
            } catch {
                // The page answered with an error, has no web process at all, or was closed:
                // not stuck.
                return false
            }
        }) else { return nil }
        let check = ResponsivenessCheck(task)
        responsiveness = check
        return check
    }

    // Waits, cancellably and at most `bound`, for `check`; true when it terminated the web process.
    func verdict(of check: ResponsivenessCheck, within bound: Duration = Page.responsivenessBound + .seconds(5))
        async throws -> Bool {
        let task = check.task
        let done = Task { @EngineActor in _ = await task.value }
        guard try await EngineWait.ended(done, within: bound) else { return false }
        return await task.value
    }

    // The live web view for a script: `.engine` while the page's web process is gone (it shows
    // nothing until the next load), rather than WebKit's "Unsupported result type".
    func scriptView() async throws -> UnsafeMutablePointer<WebKitWebView> {
        let view = try await readyView()
        if let ended = endedWebProcess {
            let why = switch ended {
            case .crashed: "crashed"
            case .exceededMemoryLimit: "used more memory than its limit"
            case .terminatedByAPI: "was terminated (stuck in JavaScript, or by Page.terminateWebProcess)"
            }
            throw HeadwayError(.engine, "the page's web process \(why); the page shows nothing until the next load")
        }
        return view
    }

    // The live web view, once a running responsiveness check is over and the browser's
    // configured cookies are set.
    func readyView() async throws -> UnsafeMutablePointer<WebKitWebView> {
        if let responsiveness, responsiveness.isRunning { _ = try await verdict(of: responsiveness) }
        if let cookies = browser?.cookiesSet {
            // Cookies are set within a bound of their own; a caller that gives up stops waiting.
            _ = try await EngineWait.ended(cookies, within: TimeLimit.longest)
        }
        return try liveView()
    }

    // A timeout's error, saying so when the page was stuck and lost its web process.
    func explained(_ error: HeadwayError, busyWith work: String = "JavaScript") async throws -> HeadwayError {
        guard error.code == .timeout || error.code == .scriptTimeout else { return error }
        if openDialog != nil {
            // The page waits for the dialog held open, not stuck: its web process stays.
            var noted = error
            noted.message += "; a JavaScript dialog is open (closeDialog answers it)"
            return noted
        }
        // Within the second that honours the timeout: a check already running (after a cancelled
        // call) that has not decided by then goes on in the background, and the next call waits.
        guard let check = checkResponsiveness(within: Page.afterTimeoutBound),
              try await verdict(of: check, within: Page.afterTimeoutBound + .milliseconds(100)) else { return error }
        var noted = error
        noted.message += "; the page was stuck in \(work), so its web process was terminated"
        return noted
    }
}
