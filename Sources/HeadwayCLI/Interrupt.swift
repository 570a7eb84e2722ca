import Dispatch
import Foundation

// SIGINT and SIGTERM. From the start of every command (`endProcessesOnSignal()`), a signal ends
// the run at once: Headway's child processes first (a web process spinning in JavaScript would
// otherwise run on for seconds), then headway itself, by the same signal. Commands that clean up
// before they go call `catchSignals()`; from then on `wait()` returns at the first signal, and a
// second one, or an orderly end that takes longer than `orderlyBound`, ends the run at once.
enum Interrupt {
    nonisolated(unsafe) private static var sources: [Int32: DispatchSourceSignal] = [:]
    nonisolated(unsafe) private static var waiters: [CheckedContinuation<Void, Never>] = []
    nonisolated(unsafe) private static var fired = false
    nonisolated(unsafe) private static var orderly = false
    private static let lock = NSLock()
    private static let registered = DispatchGroup()
    private static let signals = [SIGINT, SIGTERM]

    // Seconds an orderly end may take after a signal before the run is ended at once.
    static let orderlyBound = 10.0

    // Starts handling SIGINT and SIGTERM (once each; later calls do nothing), except one that
    // headway inherited ignored (as `cmd &` in a script does with SIGINT): that one stays ignored.
    // Until the handler is registered, the signals keep their default action, which ends the run.
    static func endProcessesOnSignal() {
        install(keepingIgnored: true)
    }

    private static func install(keepingIgnored: Bool) {
        lock.lock()
        defer { lock.unlock() }
        if sources.isEmpty { atexit(endingAtExit) }
        for sig in signals where !sources.keys.contains(sig) {
            if keepingIgnored {
                var current = sigaction()
                guard sigaction(sig, nil, &current) == 0 else { continue }
                let handler = unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
                if handler == unsafeBitCast(SIG_IGN, to: Int.self) { continue }
            }
            let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            source.setEventHandler { fire(sig) }
            registered.enter()
            // Dispatch installs its own handler when it registers the source, on its own queue;
            // from then on the signal no longer ends the process by its default action.
            source.setRegistrationHandler { registered.leave() }
            source.resume()
            sources[sig] = source
        }
    }

    // Starts catching SIGINT and SIGTERM for an orderly end. Returns once they are caught: a
    // signal sent after it returns is never lost, so say "press Ctrl-C" after it.
    static func catchSignals() {
        lock.lock()
        orderly = true
        lock.unlock()
        install(keepingIgnored: false)
        _ = registered.wait(timeout: .now() + 2)
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

    private static func fire(_ sig: Int32) {
        lock.lock()
        guard orderly, !fired else {
            lock.unlock()
            endNow(sig)
        }
        fired = true
        let ready = waiters
        waiters.removeAll()
        lock.unlock()
        queue.asyncAfter(deadline: .now() + orderlyBound) { endNow(sig) }
        for waiter in ready { waiter.resume() }
    }

    // Kills Headway's child processes, then ends headway by `sig`, without waiting for the
    // engine thread, which may be blocked on a web process that no longer answers. A thread that
    // calls `exit` meanwhile (a snippet failing as its web process dies) waits for the kill and
    // ends by the same signal (`endingAtExit`), so the status always names the signal.
    private static func endNow(_ sig: Int32) -> Never {
        lock.lock()
        if ending == 0 {
            ending = sig
            lock.unlock()
            ChildProcesses.kill()
            lock.lock()
            killed = true
        }
        lock.unlock()
        dieBy(sig)
    }

    nonisolated(unsafe) fileprivate static var ending: Int32 = 0
    nonisolated(unsafe) fileprivate static var killed = false

    // Ends the process by `sig` from this thread: dispatch's threads block signals, so it is
    // unblocked here first; `_exit` only if the signal somehow does not end it.
    fileprivate static func dieBy(_ sig: Int32) -> Never {
        signal(sig, SIG_DFL)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, sig)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        raise(sig)
        _exit(128 + sig)
    }

    // With a signal's end under way, an `exit` elsewhere waits (bounded) for the child processes
    // to be killed and ends by the signal instead of its own status.
    fileprivate static func signalBeingHandled() -> Int32? {
        for _ in 0..<500 {
            lock.lock()
            let (sig, done) = (ending, killed)
            lock.unlock()
            if sig == 0 { return nil }
            if done { return sig }
            usleep(2_000)
        }
        lock.lock()
        defer { lock.unlock() }
        return ending == 0 ? nil : ending
    }
}

private func endingAtExit() {
    if let sig = Interrupt.signalBeingHandled() { Interrupt.dieBy(sig) }
}
