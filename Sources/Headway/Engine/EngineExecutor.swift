import CHeadwayShims
import CWebKit
import Foundation

/// The global actor of the engine thread: the one GLib thread that owns every GTK, WebKit and
/// libsoup object. `Browser`, `Page` and `HTTPServer` are isolated to it; call them with `await`.
@globalActor
public actor EngineActor {
    /// The shared instance.
    public static let shared = EngineActor()

    /// The engine thread's executor: jobs run as GLib idle sources on the GLib main loop.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        EngineExecutor.shared.asUnownedSerialExecutor()
    }
}

// Runs Swift jobs on the engine thread by scheduling them as GLib idle sources.
final class EngineExecutor: SerialExecutor, @unchecked Sendable {
    static let shared = EngineExecutor()

    private let thread = EngineThread()

    private init() {
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let box = JobBox(job: UnownedJob(job))
        // Released exactly once, in engineRunJob.
        hw_invoke(engineRunJob, Unmanaged.passRetained(box).toOpaque())
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    func isIsolatingCurrentContext() -> Bool? {
        EngineThread.isCurrent
    }

    func checkIsolated() {
        precondition(EngineThread.isCurrent, "not on the Headway engine thread")
    }
}

private final class JobBox {
    let job: UnownedJob
    init(job: UnownedJob) { self.job = job }
}

private func engineRunJob(_ raw: UnsafeMutableRawPointer?) {
    guard let raw else { return }
    let box = Unmanaged<JobBox>.fromOpaque(raw).takeRetainedValue()
    box.job.runSynchronously(on: EngineExecutor.shared.asUnownedSerialExecutor())
}
