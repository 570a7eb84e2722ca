import Synchronization

/// A counting semaphore for async code: permits go first come, first served; a wait ends when the
/// waiting task is cancelled, and every wait fails once the semaphore is closed. No wait polls.
///
/// The library's prefetcher bounds its requests with one; the WebDriver server runs a session's
/// commands one at a time and hands out warm browsers with others.
///
///     let slots = AsyncSemaphore(permits: 4)
///     try await slots.wait()          // CancellationError, or the error it was closed with
///     defer { slots.signal() }
package final class AsyncSemaphore: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct IdleWaiter {
        let id: UInt64
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        let initial: Int
        var available: Int
        var waiters: [Waiter] = []
        var idleWaiters: [IdleWaiter] = []
        var closedWith: (any Error)?
        var nextID: UInt64 = 0

        var isIdle: Bool { available >= initial }

        mutating func newID() -> UInt64 {
            nextID += 1
            return nextID
        }
    }

    private let state: Mutex<State>

    /// A semaphore with `permits` free permits (0 for one that counts events handed over by `signal`).
    package init(permits: Int) {
        state = Mutex(State(initial: max(0, permits), available: max(0, permits)))
    }

    /// Takes a permit, waiting behind the earlier waiters for one. Throws `CancellationError` when
    /// the task is (or gets) cancelled before it has one, and the closing error once `close` was called.
    /// It joins the queue on the caller's actor, so that an actor's waits queue in the order it made them.
    nonisolated(nonsending) package func wait() async throws {
        let id = state.withLock { $0.newID() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // Under the lock, so that a cancellation either sees the waiter or is seen here.
                let outcome: Result<Void, any Error>? = state.withLock { state in
                    if let error = state.closedWith { return .failure(error) }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if state.available > 0 {
                        state.available -= 1
                        return .success(())
                    }
                    state.waiters.append(Waiter(id: id, continuation: continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Takes a permit if one is free now, without waiting.
    package func tryWait() -> Bool {
        state.withLock { state in
            guard state.closedWith == nil, state.available > 0 else { return false }
            state.available -= 1
            return true
        }
    }

    /// Gives a permit back: to the longest waiter, or to the free ones.
    package func signal() {
        let (waiter, idle) = state.withLock { state -> (Waiter?, [IdleWaiter]) in
            if !state.waiters.isEmpty { return (state.waiters.removeFirst(), []) }
            state.available += 1
            guard state.isIdle else { return (nil, []) }
            defer { state.idleWaiters.removeAll() }
            return (nil, state.idleWaiters)
        }
        waiter?.continuation.resume()
        for waiter in idle { waiter.continuation.resume(returning: true) }
    }

    /// Fails every waiting and later `wait` with `error` (the first close's error counts). The
    /// permits held stay held until they are signalled.
    package func close(throwing error: any Error) {
        let waiters = state.withLock { state -> [Waiter] in
            if state.closedWith == nil { state.closedWith = error }
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.continuation.resume(throwing: error) }
    }

    /// Whether a permit is held or a task waits for one.
    package var isBusy: Bool { state.withLock { !$0.isIdle || !$0.waiters.isEmpty } }

    /// The tasks waiting for a permit now.
    package var waiting: Int { state.withLock { $0.waiters.count } }

    /// Waits until every permit taken was given back, at most `limit`: true if they were. Returns
    /// false at once when the task is cancelled.
    nonisolated(nonsending) package func waitUntilIdle(within limit: Duration) async -> Bool {
        let id = state.withLock { $0.newID() }
        // Started once the waiter is in the list, so that it always finds it (or nothing, once ended).
        var timer: Task<Void, Never>?
        defer { timer?.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let now: Bool? = state.withLock { state in
                    if state.isIdle { return true }
                    if Task.isCancelled { return false }
                    state.idleWaiters.append(IdleWaiter(id: id, continuation: continuation))
                    return nil
                }
                if let now {
                    continuation.resume(returning: now)
                } else {
                    timer = Task { [self] in
                        try? await Task.sleep(for: limit)
                        endIdleWait(id, idle: false)
                    }
                }
            }
        } onCancel: {
            endIdleWait(id, idle: false)
        }
    }

    private func endIdleWait(_ id: UInt64, idle: Bool) {
        let waiter = state.withLock { state -> IdleWaiter? in
            guard let index = state.idleWaiters.firstIndex(where: { $0.id == id }) else { return nil }
            return state.idleWaiters.remove(at: index)
        }
        waiter?.continuation.resume(returning: idle)
    }
}
