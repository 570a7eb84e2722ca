import CHeadwayShims
import Foundation

// Makes sure GTK has an X display: uses `DISPLAY` when set, otherwise starts a private Xvfb
// that stops when the process ends (normally, on error, or killed by a signal such as SIGINT).
// Xvfb starts on a thread of its own (`XvfbLauncher`): `start()` waits for it cancellably,
// `ensure()` blocks the engine thread until it is up.
@EngineActor
package enum Display {
    private static var ready = false
    // The Xvfb to start once the environment is prepared for it, or nil when there is a DISPLAY.
    private static var xvfb: String?
    private static var prepared = false

    // The pid of Headway's own Xvfb, or 0 when there is none (for the CLI's signal path).
    nonisolated package static var xvfbProcessID: Int32 { hw_xvfb_pid() }

    // Returns true when Headway started its own Xvfb.
    @discardableResult
    static func ensure() throws(HeadwayError) -> Bool {
        if ready { return hw_xvfb_pid() != 0 }
        guard let xvfb = try prepare() else { return false }
        let outcome = OutcomeBox()
        XvfbLauncher.shared.start(xvfb) {
            outcome.value = $0
            outcome.set.signal()
        }
        outcome.set.wait()
        return try adopt(outcome.value!)
    }

    // As `ensure`, but waits without blocking the engine thread and throws `CancellationError`
    // at once when the task is cancelled (Xvfb goes on starting, for the next caller).
    @discardableResult
    static func start() async throws -> Bool {
        if ready { return hw_xvfb_pid() != 0 }
        guard let xvfb = try prepare() else { return false }
        // No timeout of its own: the launcher gives up after 10 s.
        let outcome = try await EngineWait<XvfbLauncher.Outcome>.run(
            timeout: nil,
            onTimeout: { .failure(CancellationError()) }
        ) { wait in
            XvfbLauncher.shared.start(xvfb) { outcome in
                Task { @EngineActor in wait.resume(.success(outcome)) }
            }
        }
        return try adopt(outcome)
    }

    // Prepares the environment for a private Xvfb once; returns its path, or nil with a DISPLAY.
    private static func prepare() throws(HeadwayError) -> String? {
        if prepared { return xvfb }
        if let display = ProcessInfo.processInfo.environment["DISPLAY"], !display.isEmpty {
            ready = true
            return nil
        }
        guard let xvfb = findExecutable("Xvfb") else {
            throw HeadwayError(
                .displayUnavailable,
                "no DISPLAY is set and Xvfb is not installed; install the 'xvfb' package (scripts/setup does it)"
            )
        }
        // A private X server has no desktop session: skip the accessibility bridge and the
        // session bus, which GLib would otherwise try to autolaunch (dbus-launch) each time.
        // The client's threads and the preload thread may be reading the environment: only
        // `hw_environment_set` changes it (glibc's setenv may free the array they read).
        if getenv("NO_AT_BRIDGE") == nil { hw_environment_set("NO_AT_BRIDGE", "1") }
        if getenv("DBUS_SESSION_BUS_ADDRESS") == nil { hw_environment_set("DBUS_SESSION_BUS_ADDRESS", "disabled:") }
        hw_environment_set("DISPLAY", "")
        // Xvfb has software GL only: its driver loads on the other core while Xvfb starts.
        hw_gl_preload_start()
        self.xvfb = xvfb
        prepared = true
        return xvfb
    }

    // Takes the display Xvfb reported; a failure leaves the next call to try again.
    private static func adopt(_ outcome: XvfbLauncher.Outcome) throws(HeadwayError) -> Bool {
        if ready { return true }
        switch outcome {
        case .success(let number):
            hw_environment_set("DISPLAY", ":\(number)")
            ready = true
            return true
        case .failure(let error):
            hw_environment_set("DISPLAY", "")
            throw error
        }
    }

    private static func findExecutable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":") + ["/usr/bin"] {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}

// The launcher's answer, handed from its thread to the blocked engine thread.
private final class OutcomeBox: @unchecked Sendable {
    let set = DispatchSemaphore(value: 0)
    var value: XvfbLauncher.Outcome?
}
