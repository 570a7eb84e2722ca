import CHeadwayShims
import CWebKit
import Foundation

// Starts GTK on the engine thread once, after making sure there is a display.
@EngineActor
enum Engine {
    private static var gtkReady = false
    // The device scale factor GTK started with; it reads it once per process.
    private static var scale = 1

    static func startGTK(scale: Int = 1) throws(HeadwayError) {
        if gtkReady {
            guard scale == self.scale else {
                throw HeadwayError(.invalidArgument, "the device scale factor is set once per process: the engine already runs at \(self.scale), not \(scale)")
            }
            return
        }
        // GDK reads the window scale from the environment when it opens the display.
        setenv("GDK_SCALE", "\(scale)", 1)
        self.scale = scale
        // Before anything of WebKit's starts from this thread (see realtime.c).
        _ = hw_drop_realtime_capability()
        let ownDisplay = try Display.ensure()
        guard gtk_init_check(nil, nil) != 0 else {
            let display = ProcessInfo.processInfo.environment["DISPLAY"] ?? ""
            throw HeadwayError(.displayUnavailable, "GTK could not open display '\(display)'")
        }
        gtkReady = true
        let display = ProcessInfo.processInfo.environment["DISPLAY"] ?? ""
        let server = ownDisplay ? "the X server (Headway's Xvfb on \(display))" : "the X server \(display)"
        // GTK cannot go on without its display; GDK itself would exit with 1 and a GLib message.
        hw_x_io_error_install("headway: error: \(server) ended unexpectedly; GTK cannot go on without it", 69)
    }
}
