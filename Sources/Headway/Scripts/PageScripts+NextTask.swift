import Foundation

extension Page {
    // A task of the page after the snippet's: WebKit starts the navigations a script schedules
    // (`location.href = …`, `form.submit()`, `location.reload()`) from a zero-delay timer set
    // before it, and asks for their policy on the same connection, ahead of this answer. A
    // page that goes away meanwhile answers at `pagehide`.
    private static let nextTask = """
    await new Promise((r) => { setTimeout(r, 0); addEventListener('pagehide', r, { once: true }); });
    return 0;
    """

    // The record of a main-frame navigation a snippet started, or nil. Only WebKit's own
    // signals count: a main-frame STARTED gives a new record at once; an allowed navigation
    // policy (which frames get too) waits briefly for its STARTED; with neither, one task of
    // the page lets a navigation it scheduled ask for its policy.
    func navigation(after record: NavigationTracker.Record?, signals: Int) async -> NavigationTracker.Record? {
        if let current = tracker.current, current !== record { return current }
        // A navigation the snippet asked the UI process for (history.back()) or scheduled has
        // asked for its policy by the time this answers.
        if tracker.navigationSignals == signals, responsiveness?.isRunning != true, let view = view?.pointer {
            _ = try? await JavaScriptCall.callAsyncFunction(view, Page.nextTask, arguments: [:], sourceURI: nil,
                                                            timeout: .seconds(2), what: "the navigation probe")
        }
        guard tracker.navigationSignals != signals else { return nil }
        return await tracker.nextRecord(after: record, within: .seconds(1))
    }
}
