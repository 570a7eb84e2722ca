import CHeadwayShims
import Foundation
#if canImport(Glibc)
import Glibc
#endif

// WebKit's remote inspector, served over HTTP. WebKitGTK reads `WEBKIT_INSPECTOR_HTTP_SERVER`
// (and `WEBKIT_INSPECTOR_SERVER`, which it ignores when the first is set) once per process, in
// `webkitInitialize()`, which the class setup of the web context and of the website data manager
// runs: the port is chosen before the process's first web context, once. The inspector protocol
// itself then listens on a port of the kernel's choosing; the HTTP server relays the frontend's
// WebSocket to it.
@EngineActor
enum Inspector {
    private static var port: Int?
    // A web context was created, so WebKit has read the environment already.
    private static var contextCreated = false

    // Called whenever a web context is created.
    static func noteContextCreated() {
        contextCreated = true
    }

    // Asks WebKit to serve the inspector on 127.0.0.1:`port`. Throws `.invalidArgument` when
    // the process already serves it on another port, `.serverFailed` when the port is taken.
    static func serve(on port: Int) throws(HeadwayError) {
        if let current = self.port {
            guard current == port else {
                throw HeadwayError(
                    .invalidArgument,
                    "the inspector is served once per process: it already listens on port \(current), not \(port)"
                )
            }
            return
        }
        guard !contextCreated else {
            throw HeadwayError(
                .invalidArgument,
                "the inspector must be asked for by the process's first browser: WebKit reads its port once"
            )
        }
        guard isFree(port) else {
            throw HeadwayError(.serverFailed, "the inspector cannot listen on 127.0.0.1:\(port): the port is in use")
        }
        hw_environment_set("WEBKIT_INSPECTOR_HTTP_SERVER", "127.0.0.1:\(port)")
        self.port = port
    }

    // Whether nothing listens on 127.0.0.1:`port` now. Binds as GLib's listener does, with
    // `SO_REUSEADDR`, so that the connections a person's inspector left behind when the last run
    // ended (TIME_WAIT, for a minute) do not count as a listener.
    private static func isFree(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var reuse: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
