import CWebKit
import Foundation

// The `GCancellable` of one libsoup request, with its deadline. The request is cancelled when
// its owner calls `cancel()` (a run or page that no longer needs it) or when `timeout` passes
// (a server that never answers, or drips its body). After `finish()` nothing cancels it.
@EngineActor
final class BoundedRequest {
    let cancellable = GObjectRef(taking: g_cancellable_new()!)
    // Whether the deadline, not the owner, ended the request.
    private(set) var timedOut = false
    let timeout: Duration
    private var deadline: EngineDeadline?

    init(timeout: Duration) {
        self.timeout = timeout.clamped
        // It only stops the request; whoever awaits it sees the cancellation.
        deadline = EngineDeadline(after: self.timeout) { [weak self] in
            guard let self else { return }
            self.timedOut = true
            self.stop()
        }
    }

    var pointer: UnsafeMutablePointer<GCancellable> { cancellable.pointer }

    // What a request to `url` that its deadline ended reports.
    func timeoutError(_ url: URL) -> HeadwayError {
        HeadwayError(.timeout, "\(url.absoluteString) sent no response within \(timeout.formatted)")
    }

    var isCancelled: Bool { g_cancellable_is_cancelled(cancellable.pointer) != 0 }

    // Stops the request: its send or read fails with a cancellation at once.
    func cancel() {
        stop()
    }

    // The request ended on its own (or its response went to someone who reads it under its
    // own cancellable): nothing cancels it any more.
    func finish() {
        deadline?.cancel()
        deadline = nil
    }

    private func stop() {
        finish()
        g_cancellable_cancel(cancellable.pointer)
    }
}
