import Foundation

extension Page {
    /// How long, after a snippet's value and one round trip through its web process, a
    /// navigation it requested may still take to show (a bound, in seconds).
    static let snippetNavigationGrace = 0.05

    /// The record of a main-frame navigation a snippet started, or nil. Only WebKit's own
    /// signals count: a main-frame STARTED gives a new record at once; an allowed navigation
    /// policy (which frames get too) waits briefly for its STARTED; with neither, a round trip
    /// through the web process and a short grace let a late one arrive.
    func navigation(after record: NavigationTracker.Record?, signals: Int) async -> NavigationTracker.Record? {
        if let current = tracker.current, current !== record { return current }
        // One round trip through the web process: a navigation it asked the UI process for
        // during the snippet (history.back()) has asked for its policy by the time this answers.
        if tracker.navigationSignals == signals, responsiveness?.isRunning != true, let view = view?.pointer {
            _ = try? await JavaScriptCall.evaluate(view, "0", sourceURI: nil, timeout: 2, what: "the navigation probe")
        }
        guard await tracker.nextSignal(after: signals, within: Page.snippetNavigationGrace) else { return nil }
        return await tracker.nextRecord(after: record, within: 1)
    }
}
