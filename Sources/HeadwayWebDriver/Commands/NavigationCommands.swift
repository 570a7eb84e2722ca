import Foundation
import Headway

// Navigate To, Get Current URL, Back, Forward, Refresh, Get Title, and the session's timeouts.
extension Handlers {
    static let navigation: [Command: Handler] = [
        .navigateTo: { session, request in
            // A closed window is `no such window` before the URL is looked at, as the spec orders it.
            _ = try session.currentPage()
            let text = try request.string("url")
            guard let url = URL(string: text), url.scheme != nil else {
                throw WebDriverError(.invalidArgument, "\"\(text)\" is not an absolute URL")
            }
            try await session.navigate { page, condition, timeout in
                try await session.load(url, in: page, until: condition, timeout: timeout)
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
