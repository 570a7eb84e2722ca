import Dispatch
import Foundation

// SIGINT and SIGTERM for commands that clean up before they go. Once `catchSignals()` ran,
// the signals no longer kill the process; `wait()` returns at the first one. Headway's Xvfb
// and WebKit's processes go when the process exits.
enum Interrupt {
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []
    nonisolated(unsafe) private static var waiters: [CheckedContinuation<Void, Never>] = []
    nonisolated(unsafe) private static var fired = false
    private static let lock = NSLock()

    // Starts catching SIGINT and SIGTERM (once; later calls do nothing). Returns once they are
    // caught: a signal sent after it returns is never lost, so say "press Ctrl-C" after it.
    static func catchSignals() {
        lock.lock()
        guard sources.isEmpty else {
            lock.unlock()
            return
        }
        // Dispatch registers a source with the kernel after `resume()`, on its own queue; a
        // signal in between would be ignored (SIG_IGN) and lost. Waited for outside the lock,
        // which `fire()` takes on that queue.
        let registered = DispatchSemaphore(value: 0)
        let signals = [SIGINT, SIGTERM]
        for sig in signals {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            source.setEventHandler { fire() }
            source.setRegistrationHandler { registered.signal() }
            source.resume()
            sources.append(source)
        }
        lock.unlock()
        for _ in signals { _ = registered.wait(timeout: .now() + 1) }
    }

    // Not the main queue, which may be the one waiting for the registration.
    private static let queue = DispatchQueue(label: "headway.interrupt")

    // Suspends until SIGINT or SIGTERM arrives (catching them from now on, if not yet).
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
