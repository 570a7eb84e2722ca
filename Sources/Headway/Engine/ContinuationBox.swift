// Carries a continuation through a C callback's `gpointer`: retained once when the call starts
// and released in its one-shot callback.
final class ContinuationBox<T, Failure: Error> {
    let continuation: CheckedContinuation<T, Failure>
    init(_ continuation: CheckedContinuation<T, Failure>) { self.continuation = continuation }
}
