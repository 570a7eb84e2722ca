// The one way Headway ends something at a time on the engine thread: `EngineWait`'s timeout, a
// request's deadline, an untaken early document's expiry, a hidden page's load limit.
// `action` runs once `duration` has passed (ContinuousClock, clamped to 0...`TimeLimit.longest`),
// unless `cancel()` came first or the deadline was dropped.
@EngineActor
final class EngineDeadline {
    private var timer: Task<Void, Never>?

    init(after duration: Duration, _ action: @escaping @EngineActor () -> Void) {
        let delay = duration.clamped
        timer = Task { @EngineActor in
            try? await Task.sleep(for: delay)
            guard !Task.isCancelled else { return }
            action()
        }
    }

    func cancel() {
        timer?.cancel()
        timer = nil
    }

    isolated deinit {
        timer?.cancel()
    }
}
