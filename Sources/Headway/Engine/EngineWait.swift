// One pending answer from the engine (a GAsyncReadyCallback, a signal, a finished load),
// bridged to async/await with a timeout and Swift Task cancellation. Every wait in Headway goes
// through it, so each is bounded and cancellable in the same way.
//
// The continuation resumes exactly once, with whichever comes first:
// - `resume(_:)`, called by whatever answers (a late answer is ignored);
// - the timeout, with the result of `onTimeout`, which also stops the work (cancels a
//   GCancellable, stops a load);
// - the waiting task's cancellation, with `CancellationError`; `onCancel` then stops the work.
//
// The cancellation handler runs on an arbitrary thread, so it only hops to the engine actor;
// everything else happens there.
@EngineActor
final class EngineWait<T: Sendable> {
    private var continuation: CheckedContinuation<T, Error>?
    private var timer: Task<Void, Never>?
    private var onCancel: (@EngineActor () -> Void)?

    private init() {}

    // Whether the wait already has its answer (or gave up).
    var isOver: Bool { continuation == nil }

    // Starts the work with `start` (synchronously) and waits for its answer. `timeout` is in
    // seconds; nil waits as long as it takes (or until cancelled).
    static func run(timeout: Double?,
                    onTimeout: @escaping @EngineActor () -> Result<T, Error>,
                    onCancel: @escaping @EngineActor () -> Void = {},
                    start: (EngineWait<T>) -> Void) async throws -> T {
        try Task.checkCancellation()
        let wait = EngineWait<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                wait.continuation = continuation
                wait.onCancel = onCancel
                if let timeout {
                    wait.timer = Task { @EngineActor in
                        try? await Task.sleep(for: .clamped(seconds: timeout))
                        guard !Task.isCancelled, !wait.isOver else { return }
                        wait.finish(onTimeout())
                    }
                }
                start(wait)
            }
        } onCancel: {
            Task { @EngineActor in wait.cancel() }
        }
    }

    // Delivers the answer; ignored when the wait is already over.
    func resume(_ result: Result<T, Error>) {
        finish(result)
    }

    private func cancel() {
        guard !isOver else { return }
        let stop = onCancel
        finish(.failure(CancellationError()))
        // The resumed task runs after this job, on this same serial executor.
        stop?()
    }

    private func finish(_ result: Result<T, Error>) {
        guard let continuation else { return }
        self.continuation = nil
        onCancel = nil
        timer?.cancel()
        timer = nil
        continuation.resume(with: result)
    }
}

extension EngineWait where T == Bool {
    // Waits for `task` to end, at most `timeout` seconds. Returns false when the time ran out;
    // throws `CancellationError` when the waiting task is cancelled. `task` itself goes on.
    static func ended(_ task: Task<Void, Never>, within timeout: Double) async throws -> Bool {
        try await run(timeout: timeout, onTimeout: { .success(false) }) { wait in
            Task { @EngineActor in
                await task.value
                wait.resume(.success(true))
            }
        }
    }
}
