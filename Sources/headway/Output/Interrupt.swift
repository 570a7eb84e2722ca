import Dispatch
import Foundation

/// Waits for SIGINT or SIGTERM without dying, so a command can clean up first.
enum Interrupt {
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    static func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let once = Once(continuation)
            for sig in [SIGINT, SIGTERM] {
                signal(sig, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: sig, queue: .main)
                source.setEventHandler { once.fire() }
                source.resume()
                sources.append(source)
            }
        }
    }

    private final class Once: @unchecked Sendable {
        private var continuation: CheckedContinuation<Void, Never>?
        private let lock = NSLock()
        init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = continuation }
        func fire() {
            lock.lock()
            let c = continuation
            continuation = nil
            lock.unlock()
            c?.resume()
        }
    }
}
