import Foundation
import Headway

// Navigate To, Get Current URL, Back, Forward, Refresh, Get Title, and the session's timeouts.
extension Handlers {
    static let navigation: [Command: Handler] = [
        .navigateTo: { session, request in
            let text = try request.string("url")
            guard let url = URL(string: text), url.scheme != nil else {
                throw WebDriverError(.invalidArgument, "\"\(text)\" is not an absolute URL")
            }
            try await session.navigate { page, condition, timeout in
                try await page.load(url, until: condition, timeout: timeout)
            }
            return .null
        },
        .getCurrentURL: { session, _ in
            .string(try session.currentPage().url?.absoluteString ?? "about:blank")
        },
        .back: { session, _ in
            guard try session.currentPage().state.canGoBack else { return .null }
            try await session.navigate { page, _, timeout in try await page.goBack(timeout: timeout) }
            return .null
        },
        .forward: { session, _ in
            guard try session.currentPage().state.canGoForward else { return .null }
            try await session.navigate { page, _, timeout in try await page.goForward(timeout: timeout) }
            return .null
        },
        .refresh: { session, _ in
            try await session.navigate { page, _, timeout in try await page.reload(timeout: timeout) }
            return .null
        },
        .getTitle: { session, _ in .string(try session.currentPage().title) },
        .getTimeouts: { session, _ in session.timeouts.json },
        .setTimeouts: { session, request in
            session.timeouts = try Timeouts(parsing: request.body, over: session.timeouts)
            return .null
        },
    ]
}

extension Session {
    // Runs a navigation of the current window under the session's page load strategy and timeout,
    // then makes the top-level document the current browsing context.
    func navigate(
        _ navigation: @escaping @Sendable @EngineActor (Page, LoadCondition, Duration) async throws -> LoadResult
    ) async throws {
        let page = try currentPage()
        framePath = []
        // The page stays open after the command: its icon request may end on its own.
        page.waitsForPageIcon = false
        let condition: LoadCondition =
            switch capabilities.pageLoadStrategy {
            case .normal: .load
            case .eager: .domContentLoaded
            case .none: .committed
            }
        do {
            // A user prompt the page opens while loading ends the wait, as in WebKitWebDriver.
            let timeout = timeouts.pageLoadDuration
            lastLoad = try await page.unlessDialogOpens {
                try await navigation(page, condition, timeout)
            } ?? lastLoad
        } catch let error as HeadwayError {
            switch error.code {
            // A response that is no page (204, a download) leaves the document as it was.
            case .notAPage: return
            case .timeout: throw WebDriverError(.timeout, "the page did not load within the pageLoad timeout "
                + "(\(timeouts.pageLoad) ms)")
            case .loadFailed, .blockedURL: throw WebDriverError(.unknownError, error.description)
            default: throw error
            }
        }
    }
}
