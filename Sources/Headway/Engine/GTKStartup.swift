import CHeadwayShims
import CWebKit
import Foundation

// Starts GTK on the engine thread once, after making sure there is a display.
@EngineActor
enum Engine {
    private static var gtkReady = false
    // The device scale factor GTK started with; it reads it once per process.
    private static var scale = 1

    private static var scaleChosen = false

    // As `startGTK`, but the wait for a private Xvfb ends at once when the task is cancelled
    // (Xvfb goes on starting); only GTK's own set-up then runs on the engine thread.
    static func start(scale: Int = 1) async throws {
        try choose(scale: scale)
        if !gtkReady { try await Display.start() }
        try startGTK(scale: scale)
    }

    static func startGTK(scale: Int = 1) throws(HeadwayError) {
        try choose(scale: scale)
        if gtkReady { return }
        let ownDisplay = try Display.ensure()
        if ownDisplay { paintOnTheCPU() }
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

    // Headway's Xvfb has no GPU: its GL is Mesa's software renderer (llvmpipe), so WebKit's GPU
    // painting (Skia on GL) is CPU work behind an emulated GPU. Skia's own CPU painting does the
    // same work directly (200 pages in a batch: 1.4 to 1.5 times as many pages a second,
    // docs/performance.md); layers are still composited with GL, as before. Set before WebKit
    // starts its processes, which inherit it; a value the user set is kept.
    private static func paintOnTheCPU() {
        let name = "WEBKIT_SKIA_ENABLE_CPU_RENDERING"
        if ProcessInfo.processInfo.environment[name] == nil { hw_environment_set(name, "1") }
    }

    // Fixes the device scale factor for the process, before anything of WebKit's starts.
    private static func choose(scale: Int) throws(HeadwayError) {
        if scaleChosen {
            guard scale == self.scale else {
                throw HeadwayError(.invalidArgument, "the device scale factor is set once per process: "
                                   + "the engine already runs at \(self.scale), not \(scale)")
            }
            return
        }
        // GDK reads the window scale from the environment when it opens the display.
        hw_environment_set("GDK_SCALE", "\(scale)")
        self.scale = scale
        scaleChosen = true
        // Before anything of WebKit's starts from this thread (see realtime.c).
        _ = hw_drop_realtime_capability()
    }
}
