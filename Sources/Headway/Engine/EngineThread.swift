import CHeadwayShims
import CWebKit
import Foundation

// The dedicated thread that runs the default GLib main context for the life of the process.
// It never returns; the process exits around it.
final class EngineThread: @unchecked Sendable {
    nonisolated(unsafe) private static var engineThreadID: pthread_t?

    static var isCurrent: Bool {
        guard let id = engineThreadID else { return false }
        return pthread_equal(id, pthread_self()) != 0
    }

    func start() {
        let ready = DispatchSemaphore(value: 0)
        let thread = Thread {
            EngineThread.engineThreadID = pthread_self()
            hw_set_thread_name("headway-engine")
            let context = g_main_context_default()
            g_main_context_acquire(context)
            let loop = g_main_loop_new(context, 0)
            ready.signal()
            g_main_loop_run(loop)
        }
        thread.name = "headway-engine"
        thread.stackSize = 8 << 20
        thread.start()
        ready.wait()
    }
}
