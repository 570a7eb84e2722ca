import Foundation
import Headway

// How a session waits for navigations: the ones a navigation command asks for, and the ones input
// or a click starts (https://www.w3.org/TR/webdriver2/#dfn-wait-for-navigation-to-complete),
// under the page load strategy and the pageLoad timeout. Each is recorded by the page, followed
// or not, for /headway/timing and /headway/har.
extension Session {
    // When a navigation counts as complete under the page load strategy.
    var loadCondition: LoadCondition {
        switch capabilities.pageLoadStrategy {
        case .normal: .load
        case .eager: .domContentLoaded
        case .none: .committed
        }
    }

    // Loads `url` in `page` as Navigate To and browsingContext.navigate do: recording its frames
    // when the session's "headway:options" ask for a filmstrip.
    func load(_ url: URL, in page: Page, until condition: LoadCondition, timeout: Duration) async throws -> LoadResult {
        try await page.load(url, until: condition, timeout: timeout, filmstrip: capabilities.options.filmstrip)
    }

    // Runs a navigation of the current window (Navigate To, Back, Forward, Refresh), then makes
    // the top-level document the current browsing context. A user prompt the page opens while it
    // loads ends the wait, as in WebKitWebDriver; the load goes on.
    func navigate(
        _ navigation: @escaping @Sendable @EngineActor (Page, LoadCondition, Duration) async throws -> LoadResult
    ) async throws {
        let page = try currentPage()
        framePath = []
        let condition = loadCondition, timeout = timeouts.pageLoadDuration
        do {
            _ = try await page.unlessDialogOpens(cancellingWork: false) {
                try await navigation(page, condition, timeout)
            }
        } catch let error as HeadwayError {
            switch error.code {
            case .loadFailed, .blockedURL: throw WebDriverError(.unknownError, error.description)
            default: try navigationEnded(error)
            }
        }
    }

    // Runs `action` (a click, keys, actions) on `page` and follows the navigation it started, if
    // it started one: with the strategy "none" the page is left to it. What `action` throws is
    // thrown as it is; a navigation that fails, or ends in a download, leaves the page as WebKit
    // left it, as a browser's click does.
    // `afterItsOwnTask`: `action` is a user script, which answers one task after it ran
    // (ScriptRuntime), so the page needs no probe.
    func followingNavigation(on page: Page, afterItsOwnTask: Bool = false, _ action: () async throws -> Void)
        async throws {
        guard capabilities.pageLoadStrategy != .none else { return try await action() }
        var actionError: (any Error)?
        let recorded = { () async throws -> Void in
            do { try await action() } catch {
                actionError = error
                throw error
            }
        }
        do {
            let timeout = timeouts.pageLoadDuration
            if afterItsOwnTask {
                try await page.followNavigation(afterItsOwnTask: recorded, until: loadCondition, timeout: timeout)
            } else {
                try await page.followNavigation(until: loadCondition, timeout: timeout, startedBy: recorded)
            }
        } catch let error as HeadwayError where actionError == nil {
            switch error.code {
            case .loadFailed, .blockedURL: return
            default: try navigationEnded(error)
            }
        }
    }

    // A navigation's failure as the command answers it: a response that is no page (204, a
    // download) leaves the document as it was; a timeout is the pageLoad timeout's.
    private func navigationEnded(_ error: HeadwayError) throws {
        switch error.code {
        case .notAPage: return
        case .timeout:
            throw WebDriverError(.timeout,
                                 "the page did not load within the pageLoad timeout (\(timeouts.pageLoad) ms)")
        default: throw error
        }
    }
}
