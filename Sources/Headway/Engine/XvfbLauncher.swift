import CHeadwayShims
import Foundation

// Starts the private Xvfb once per process on a thread of its own, so that neither the engine
// thread nor a caller that gives up waits for it. The thread then stays parked for the life of
// the process: Xvfb is started with PR_SET_PDEATHSIG, which is tied to the forking thread.
final class XvfbLauncher: @unchecked Sendable {
    static let shared = XvfbLauncher()

    // The display number, or why Xvfb could not start.
    typealias Outcome = Result<Int32, HeadwayError>

    private let lock = NSLock()
    private var outcome: Outcome?
    private var waiters: [@Sendable (Outcome) -> Void] = []
    private var launched = false

    private init() {}

    // Starts Xvfb at `path` unless a start is under way or over; `done` gets the outcome (at
    // once when it is known), on the launcher's thread or the caller's.
    func start(_ path: String, done: @escaping @Sendable (Outcome) -> Void) {
        lock.lock()
        if let outcome {
            lock.unlock()
            done(outcome)
            return
        }
        waiters.append(done)
        let first = !launched
        launched = true
        lock.unlock()
        guard first else { return }
        let thread = Thread { [self] in
            hw_set_thread_name("headway-xvfb")
            var buffer = [CChar](repeating: 0, count: 256)
            let number = hw_xvfb_start(path, 10_000, &buffer, Int32(buffer.count))
            let reason = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard number >= 0 else {
                finish(.failure(HeadwayError(.displayUnavailable, "could not start Xvfb: \(reason)")))
                return
            }
            finish(.success(number))
            // Parked, not ended: Xvfb would get SIGTERM when its forking thread exits.
            while true { sleep(UInt32.max) }
        }
        thread.name = "headway-xvfb"
        thread.stackSize = 256 << 10
        thread.start()
    }

    // A failure is not kept: the next start tries again.
    private func finish(_ result: Outcome) {
        lock.lock()
        if case .success = result { outcome = result } else { launched = false }
        let waiting = waiters
        waiters.removeAll()
        lock.unlock()
        for waiter in waiting { waiter(result) }
    }
}
