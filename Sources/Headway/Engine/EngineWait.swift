import Foundation

// One pending answer from the engine (a GAsyncReadyCallback, a signal, a finished load),
// bridged to async/await with a timeout and Swift Task cancellation. Every wait in Headway goes
// through it, so each is bounded and cancellable in the same way.
//
// The continuation resumes exactly once, with whichever comes first:
// - `resume(_:)`, called by whatever answers (a late answer is ignored);
// - the timeout, with the result of `onTimeout`, which also stops the work (cancels a
//   GCancellable, stops a load);
// - the waiting task's cancellation, with `CancellationError` at once, from the cancelling
//   thread: the waiter never waits for the engine thread to notice. `onCancel` then stops the
//   work on the engine thread, in a job queued before the resumed waiter's.
@EngineActor
final class EngineWait<T: Sendable> {
    private let slot = ContinuationSlot<T>()
    private var deadline: EngineDeadline?
    private var onCancel: (@EngineActor () -> Void)?

    private init() {}

    // Whether the wait already has its answer (or gave up).
    var isOver: Bool { slot.isEmpty }

    // Starts the work with `start` (synchronously) and waits for its answer, at most `timeout`;
    // nil waits as long as it takes (or until cancelled).
    static func run(timeout: Duration?,
                    onTimeout: @escaping @EngineActor () -> Result<T, Error>,
                    onCancel: @escaping @EngineActor () -> Void = {},
                    start: (EngineWait<T>) -> Void) async throws -> T {
        try Task.checkCancellation()
        let wait = EngineWait<T>()
        let slot = wait.slot
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // Cancelled in the meantime: nothing started, nothing to stop.
                guard slot.fill(continuation) else {
                    continuation.resume(throwing: CancellationError())
                    return
                }
                wait.onCancel = onCancel
                if let timeout {
                    wait.deadline = EngineDeadline(after: timeout) {
                        guard !wait.isOver else { return }
                        wait.finish(onTimeout())
                    }
                }
                start(wait)
            }
        } onCancel: {
            guard let continuation = slot.cancel() else { return }
            Task { @EngineActor in wait.stopCancelled() }
            continuation.resume(throwing: CancellationError())
        }
    }

    // Delivers the answer; ignored when the wait is already over.
    func resume(_ result: Result<T, Error>) {
        finish(result)
    }

    private func stopCancelled() {
        let stop = onCancel
        onCancel = nil
        deadline?.cancel()
        deadline = nil
        stop?()
    }

    private func finish(_ result: Result<T, Error>) {
        guard let continuation = slot.take() else { return }
        onCancel = nil
        deadline?.cancel()
        deadline = nil
        continuation.resume(with: result)
    }
}

// The continuation of one wait, taken exactly once: by the answer, the timeout (on the engine
// thread) or the task's cancellation (on any thread).
private final class ContinuationSlot<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T, Error>?
    private var cancelled = false

    var isEmpty: Bool { lock.withLock { continuation == nil } }

    // Holds `continuation`; false when the wait was cancelled before it started.
    func fill(_ continuation: CheckedContinuation<T, Error>) -> Bool {
        lock.withLock {
            guard !cancelled else { return false }
            self.continuation = continuation
            return true
        }
    }

    func take() -> CheckedContinuation<T, Error>? {
        lock.withLock {
            defer { continuation = nil }
            return continuation
        }
    }

    // Takes the continuation for a cancellation, and refuses one that comes later.
    func cancel() -> CheckedContinuation<T, Error>? {
        lock.withLock {
            cancelled = true
            defer { continuation = nil }
            return continuation
        }
    }
}

extension EngineWait where T == Bool {
    // Waits for `task` to end, at most `timeout`. Returns false when the time ran out;
    // throws `CancellationError` when the waiting task is cancelled. `task` itself goes on.
    static func ended(_ task: Task<Void, Never>, within timeout: Duration) async throws -> Bool {
        try await run(timeout: timeout, onTimeout: { .success(false) }) { wait in
            Task { @EngineActor in
                await task.value
                wait.resume(.success(true))
            }
        }
    }
}
