import Foundation

// The tasks a page starts in the background (the responsiveness check): none outlives the page.
// `close()` cancels them and refuses new ones; a closing `withPage`/`withBrowser` then waits
// until they have ended.
@EngineActor
final class PageTasks {
    private var running: [Int: (cancel: () -> Void, ended: () async -> Void)] = [:]
    private var nextKey = 0
    private(set) var isClosed = false

    // Starts `body` as a task the page owns; nil once the page is closed.
    func start<T: Sendable>(_ body: @escaping @EngineActor () async -> T) -> Task<T, Never>? {
        guard !isClosed else { return nil }
        nextKey += 1
        let key = nextKey
        let task = Task { @EngineActor [weak self] in
            let value = await body()
            self?.running[key] = nil
            return value
        }
        running[key] = (cancel: { task.cancel() }, ended: { _ = await task.value })
        return task
    }

    // Cancels every task and refuses new ones.
    func cancelAll() {
        isClosed = true
        for task in running.values { task.cancel() }
    }

    // Waits until every task has ended (a cancelled one ends at its next await).
    func ended() async {
        for task in Array(running.values) { await task.ended() }
    }
}
