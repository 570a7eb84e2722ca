import CHeadwayShims
import Foundation

// Makes sure GTK has an X display: uses `DISPLAY` when set, otherwise starts a private Xvfb
// that stops when the process ends (normally, on error, or killed by a signal such as SIGINT).
@EngineActor
enum Display {
    private static var ready = false

    // Returns true when Headway started its own Xvfb.
    @discardableResult
    static func ensure() throws(HeadwayError) -> Bool {
        if ready { return hw_xvfb_pid() != 0 }
        if let display = ProcessInfo.processInfo.environment["DISPLAY"], !display.isEmpty {
            ready = true
            return false
        }
        guard let xvfb = findExecutable("Xvfb") else {
            throw HeadwayError(.displayUnavailable,
                               "no DISPLAY is set and Xvfb is not installed; install the 'xvfb' package (scripts/setup does it)")
        }
        // A private X server has no desktop session: skip the accessibility bridge and the
        // session bus, which GLib would otherwise try to autolaunch (dbus-launch) each time.
        // Set before the preload thread starts, with DISPLAY's slot: that thread runs library
        // constructors that read the environment, and glibc's setenv may free the array they
        // read when it adds a variable. Replacing a value later only swaps one pointer.
        setenv("NO_AT_BRIDGE", "1", 0)
        setenv("DBUS_SESSION_BUS_ADDRESS", "disabled:", 0)
        setenv("DISPLAY", "", 1)
        // Xvfb has software GL only: its driver loads on the other core while Xvfb starts.
        hw_gl_preload_start()
        var buffer = [CChar](repeating: 0, count: 256)
        // Forked from the engine thread, which lives as long as the process: PR_SET_PDEATHSIG
        // is tied to the forking thread.
        let number = hw_xvfb_start(xvfb, 10_000, &buffer, Int32(buffer.count))
        guard number >= 0 else {
            unsetenv("DISPLAY")
            let reason = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw HeadwayError(.displayUnavailable, "could not start Xvfb: \(reason)")
        }
        setenv("DISPLAY", ":\(number)", 1)
        ready = true
        return true
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
