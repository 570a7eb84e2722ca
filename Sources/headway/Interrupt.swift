import Dispatch
import Foundation

/// SIGINT and SIGTERM for commands that clean up before they go. Once `catchSignals()` ran,
/// the signals no longer kill the process; `wait()` returns at the first one. Headway's Xvfb
/// and WebKit's processes go when the process exits.
enum Interrupt {
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []
    nonisolated(unsafe) private static var waiters: [CheckedContinuation<Void, Never>] = []
    nonisolated(unsafe) private static var fired = false
    private static let lock = NSLock()

    /// Starts catching SIGINT and SIGTERM (once; later calls do nothing).
    static func catchSignals() {
        lock.lock()
        defer { lock.unlock() }
        guard sources.isEmpty else { return }
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .main)
            source.setEventHandler { fire() }
            source.resume()
            sources.append(source)
        }
    }

    /// Suspends until SIGINT or SIGTERM arrives (catching them from now on, if not yet).
    static func wait() async {
        catchSignals()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lock.lock()
            if fired {
                lock.unlock()
                continuation.resume()
            } else {
                waiters.append(continuation)
                lock.unlock()
            }
        }
    }

    private static func fire() {
        lock.lock()
        fired = true
        let ready = waiters
        waiters.removeAll()
        lock.unlock()
        for waiter in ready { waiter.resume() }
    }
}
