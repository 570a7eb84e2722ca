import CHeadwayShims
import CWebKit
import Foundation

// Holds a page's web process to `Browser.Configuration.webProcessMemoryLimit` from the browser's
// side. WebKit's own memory-pressure check runs on the web process's main thread, so a page that
// allocates in a loop that never yields outruns it (a 200 MB limit once let it reach 12 GB). The
// watch reads the resident size of the process serving the page's view (its id comes from the
// web-process extension) every `interval` on the engine thread, and kills that process once it
// is over the limit. It kills the process it measured, not the view's: while a navigation swaps
// processes the view may already be served by a new one, which `terminate_web_process` would
// have killed instead (a page loaded after a memory hog then lost its process, 1 load in 4).
@EngineActor
final class MemoryWatch {
    // How often the resident size is read, in milliseconds: reading /proc/PID/statm takes
    // microseconds, and a page can fault in a few hundred MB between two reads.
    static let interval: guint = 100

    let limitMB: Int
    private let limitPages: Int
    private weak var page: Page?
    private var source: guint = 0
    // True from the watch's kill of the web process until WebKit reports it (or, for a process
    // that no longer served the view, until a new one serves it).
    private var terminated = false
    // The process it terminated last: while that one exits, its memory is still counted, and the
    // view's next process must not be taken for it.
    private var killed: pid_t?

    init(limitMB: Int, page: Page) {
        self.limitMB = limitMB
        let pageSize = max(1, Int(sysconf(Int32(_SC_PAGESIZE))))
        let (bytes, overflow) = limitMB.multipliedReportingOverflow(by: 1 << 20)
        limitPages = overflow ? Int.max : bytes / pageSize
        self.page = page
        let box = Unmanaged.passRetained(Weak(self)).toOpaque()
        source = g_timeout_add_full(G_PRIORITY_HIGH, MemoryWatch.interval, { data in
            nonisolated(unsafe) let data = data
            return EngineActor.assumeIsolated {
                let watch = Unmanaged<Weak<MemoryWatch>>.fromOpaque(data!).takeUnretainedValue().object
                return watch?.check() == true ? 1 : 0
            }
        }, box) { data in
            guard let data else { return }
            Unmanaged<Weak<MemoryWatch>>.fromOpaque(data).release()
        }
    }

    isolated deinit {
        stop()
    }

    // Stops watching (the page closed).
    func stop() {
        if source != 0 { g_source_remove(source) }
        source = 0
    }

    // Whether the web process that just ended was terminated by this watch; answers once.
    func tookTermination() -> Bool {
        defer { terminated = false }
        return terminated
    }

    // One reading; false ends the timer.
    private func check() -> Bool {
        guard let view = page?.view?.pointer else {
            source = 0
            return false
        }
        let pid = WebProcessID.of(view)
        if terminated, pid != nil { terminated = false }
        guard !terminated, let pid, pid != killed,
              let resident = MemoryWatch.residentPages(of: pid), resident > limitPages else { return true }
        terminated = true
        killed = pid
        WebProcessID.forget(view)
        kill(pid, SIGKILL)
        return true
    }

    // Field 2 of /proc/PID/statm: resident pages. Nil once the process is gone.
    private static func residentPages(of pid: pid_t) -> Int? {
        guard let text = procFile("/proc/\(pid)/statm") else { return nil }
        let fields = text.split(separator: " ", maxSplits: 2)
        return fields.count > 1 ? Int(fields[1]) : nil
    }
}

// A small /proc file, read with one system call (Foundation's readers stat and buffer).
func procFile(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 512)
    let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    guard count > 0 else { return nil }
    return String(decoding: buffer[..<count], as: UTF8.self)
}
