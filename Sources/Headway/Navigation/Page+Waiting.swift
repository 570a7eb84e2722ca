import Foundation

extension Page {
    /// How long the network must stay quiet for `waitForNetworkIdle`: 500 ms.
    public static let networkIdleQuiet: Duration = .milliseconds(500)

    /// Waits until the page has had no request in flight for `quiet` (by default 500 ms,
    /// `networkIdleQuiet`), as Playwright's `networkidle` does, for pages that keep loading after
    /// their load event. Throws `.timeout` when the network is still busy after `timeout`,
    /// `.closed` for a closed page, and `CancellationError` when the task is cancelled.
    public func waitForNetworkIdle(quiet: Duration = Page.networkIdleQuiet,
                                   timeout: Duration = .seconds(30)) async throws {
        _ = try liveView()
        let quiet = quiet.clamped
        let deadline = Engine.now() + timeout.clamped
        while true {
            if let idle = network.idleFor, idle >= quiet { return }
            let now = Engine.now()
            guard now < deadline else {
                throw HeadwayError(.timeout, "the network was not quiet for \(quiet.formatted) within "
                                   + "\(timeout.formatted) (\(network.requestsInFlight) requests in flight)")
            }
            let step = network.idleFor.map { quiet - $0 } ?? .milliseconds(50)
            try await Task.sleep(for: min(max(step, .milliseconds(10)), now.duration(to: deadline)))
            _ = try liveView()
        }
    }

    /// Waits until an element matches the CSS `selector`, watching the DOM as it changes, and
    /// returns at once when one already does. Throws `.timeout` when none matched within
    /// `timeout`, `.invalidArgument` for a selector the page cannot parse, `.scriptError` when
    /// the page navigated away meanwhile, `.closed` for a closed page, and `CancellationError`.
    public func waitFor(selector: String, timeout: Duration = .seconds(30)) async throws {
        let timeout = timeout.clamped
        let found: Bool
        do {
            found = try await waitForContent(.selector, selector, timeout: timeout)
        } catch let error as HeadwayError where error.code == .scriptError && error.message.contains("SyntaxError") {
            throw HeadwayError(.invalidArgument, "not a CSS selector: \(selector)")
        }
        guard found else { throw HeadwayError(.timeout, "no element matched \(selector) within \(timeout.formatted)") }
    }
}
