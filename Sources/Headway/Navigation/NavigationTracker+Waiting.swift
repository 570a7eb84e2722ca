import Foundation

// Waiting on the tracker: for a record to complete, for the next record, for the next
// commit. Every wait is bounded and ends when its task is cancelled.
extension NavigationTracker {
    // Waits until a record other than `record` begins, or `timeout` passes, or the task is
    // cancelled. Returns the new record. A same-document navigation meanwhile (which also wakes
    // `nextChange`) does not end the wait.
    func nextRecord(after record: Record?, within timeout: Duration) async -> Record? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let current, current !== record { return current }
            let left = ContinuousClock.now.duration(to: deadline)
            guard left > .zero, !Task.isCancelled else { return nil }
            await nextChange(within: left)
        }
    }

    // Waits until a load begins or a same-document navigation happens, or `timeout` passes, or
    // the task is cancelled.
    func nextChange(within timeout: Duration) async {
        _ = try? await EngineWait<Void>.run(timeout: timeout, onTimeout: { .success(()) }) { wait in
            recordWaiters.append { wait.resume(.success(())) }
        }
    }

    // Calls `done` once `record` completes (at once when it already has).
    func whenDone(_ record: Record, _ done: @escaping @EngineActor () -> Void) {
        if record.isDone { return done() }
        record.waiters.append(done)
        if record === current { send(.awaited(load: record.id)) }
    }

    func wakeRecordWaiters() {
        let waiters = recordWaiters
        recordWaiters.removeAll()
        for waiter in waiters { waiter() }
    }

    // Calls `body` at the next main-frame commit (a new document replaces the page's); returns
    // a key for `forgetCommitWaiter`.
    func onNextCommit(_ body: @escaping @EngineActor () -> Void) -> Int {
        nextCommitWaiter += 1
        commitWaiters[nextCommitWaiter] = body
        return nextCommitWaiter
    }

    func forgetCommitWaiter(_ key: Int) {
        commitWaiters[key] = nil
    }

    func wakeCommitWaiters() {
        let waiters = commitWaiters.values
        commitWaiters.removeAll()
        for waiter in waiters { waiter() }
    }
}
