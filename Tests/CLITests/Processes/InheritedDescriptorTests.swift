import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// headway passes none of the descriptors it inherited to the processes it starts: WebKit's
/// processes inherit whatever is open, and one kept open there (a caller's pipe, the socket
/// Foundation's Process watches for headway's end) outlived headway with a spinning page.
@Suite("Descriptors headway inherits", .serialized)
@EngineActor
struct InheritedDescriptorTests {
    @Test func noProcessBelowHeadwayHoldsThem() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        var status = stat()
        try #require(fstat(ends[1], &status) == 0)
        let link = "pipe:[\(status.st_ino)]"
        // posix_spawn passes the pipe on (Foundation's Process would close it in the child).
        let arguments = ["headway", "load", server.url.appendingPathComponent("hang").absoluteString, "--timeout", "60"]
        let pid = try Self.spawn(try CLI.binary.path, arguments)
        defer {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        let holders = await onOwnThread { () -> [String]? in
            let deadline = Date().addingTimeInterval(60)
            while isRunning(pid), Date() < deadline {
                let tree = descendants(of: pid)
                if tree.values.contains(where: { $0.hasPrefix("WebKitWebProc") }),
                   tree.values.contains(where: { $0.hasPrefix("WebKitNetwork") }) {
                    return tree.filter { openDescriptors(of: $0.key).values.contains(link) }.map(\.value)
                }
                usleep(20_000)
            }
            return nil
        }
        #expect(openDescriptors(of: pid).values.contains(link), "headway did not inherit the pipe")
        #expect(holders == [], "held by: \(holders.map { "\($0)" } ?? "no web and network process seen")")
    }

    // Starts `path` with `arguments`, without DISPLAY, inheriting every descriptor not marked
    // close-on-exec.
    nonisolated static func spawn(_ path: String, _ arguments: [String]) throws -> pid_t {
        let environment = ProcessInfo.processInfo.environment.filter { $0.key != "DISPLAY" }
            .map { "\($0.key)=\($0.value)" }
        var argv = arguments.map { strdup($0) } + [nil]
        var envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let failed = posix_spawn(&pid, path, nil, nil, &argv, &envp)
        guard failed == 0 else { throw CLIError("posix_spawn \(path): \(String(cString: strerror(failed)))") }
        return pid
    }
}
