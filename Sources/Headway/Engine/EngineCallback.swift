import CWebKit

// The one bridge from a GIO-style asynchronous call (`…_async(…, cancellable, callback, data)`,
// answered by `…_finish(source, result, &error)` in a GAsyncReadyCallback) to async/await.
//
// - `start` makes the call with the cancellable, callback and user data it is given. The box the
//   user data points to is retained once, here, and released once, in the callback, which GIO
//   calls exactly once for every call it started (with G_IO_ERROR_CANCELLED when cancelled).
// - The wait (an `EngineWait`) resumes exactly once, with the first of: the answer; the
//   `timeout`, with `onTimeout`'s error; the task's cancellation, with `CancellationError` at
//   once; or `endEarly`'s error. All but the answer also cancel the call's GCancellable
//   (`cancellable`, or one of its own).
// - `finish` runs for every answer, a late one too, so what it returns must own what the call
//   gave (a stream, a surface): a late answer is dropped, and frees it.
// - `calls` > 1: `start` makes that many calls with the same callback and user data (a batch,
//   such as many cookies); the box is retained once per call, and the wait resumes with the last
//   answer's result (the others' errors are dropped: a batch's calls are each best effort).
@EngineActor
func engineAsync<T: Sendable>(
    calls: Int = 1,
    cancellable given: UnsafeMutablePointer<GCancellable>? = nil,
    timeout: Duration? = nil,
    onTimeout: @escaping @EngineActor () -> any Error = { HeadwayError(.timeout, "the engine did not answer in time") },
    endEarly: ((@escaping @EngineActor (any Error) -> Void) -> Void)? = nil,
    start: @EngineActor (_ cancellable: UnsafeMutablePointer<GCancellable>, _ callback: GAsyncReadyCallback,
            _ data: gpointer) -> Void,
    finish: @escaping @EngineActor (_ source: UnsafeMutablePointer<GObject>?, _ result: OpaquePointer?) throws -> T
) async throws -> T {
    let cancellable = given.map { GObjectRef(retaining: $0) } ?? GObjectRef(taking: g_cancellable_new()!)
    return try await EngineWait<T>.run(
        timeout: timeout,
        onTimeout: {
            g_cancellable_cancel(cancellable.pointer)
            return .failure(onTimeout())
        },
        onCancel: { g_cancellable_cancel(cancellable.pointer) }
    ) { wait in
        precondition(calls >= 1, "engineAsync: a batch of \(calls) calls")
        var left = calls
        let box = CallbackBox { source, result in
            let answer = Result { try finish(source, result) }
            left -= 1
            if left == 0 { wait.resume(answer) }
        }
        let data = Unmanaged.passRetained(box)
        for _ in 1..<calls { _ = data.retain() }
        start(cancellable.pointer, engineCallbackDone, data.toOpaque())
        endEarly? { error in
            // GIO then calls back with the cancellation, which releases the box.
            g_cancellable_cancel(cancellable.pointer)
            wait.resume(.failure(error))
        }
    }
}

// What one call's callback needs: the wait's answer, with its `finish`.
@EngineActor
private final class CallbackBox {
    let answer: @EngineActor (UnsafeMutablePointer<GObject>?, OpaquePointer?) -> Void
    init(_ answer: @escaping @EngineActor (UnsafeMutablePointer<GObject>?, OpaquePointer?) -> Void) {
        self.answer = answer
    }
}

// GIO calls it on the thread whose main context started the call: the engine thread.
private func engineCallbackDone(_ source: UnsafeMutablePointer<GObject>?, _ result: OpaquePointer?,
                                _ data: gpointer?) {
    nonisolated(unsafe) let source = source
    nonisolated(unsafe) let result = result
    nonisolated(unsafe) let data = data
    EngineActor.assumeIsolated {
        Unmanaged<CallbackBox>.fromOpaque(data!).takeRetainedValue().answer(source, result)
    }
}
