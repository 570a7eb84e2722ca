import Foundation

extension Page {
    /// How long after a snippet's value a navigation it requested may still reach the UI
    /// process (history navigations go through it first), in seconds.
    static let snippetNavigationGrace = 0.15

    /// The record of a main-frame navigation a snippet started, or nil. Only WebKit's own
    /// signals count: a main-frame STARTED gives a new record at once; an allowed navigation
    /// policy (which frames get too) waits briefly for its STARTED; with neither, a short grace
    /// lets a late one arrive.
    func navigation(after record: NavigationTracker.Record?, signals: Int) async -> NavigationTracker.Record? {
        if let current = tracker.current, current !== record { return current }
        guard await tracker.nextSignal(after: signals, within: Page.snippetNavigationGrace) else { return nil }
        return await tracker.nextRecord(after: record, within: 1)
    }
}
