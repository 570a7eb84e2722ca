import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Debian's nginx on a free loopback port, serving a directory the test wrote, with production
/// settings: gzip with `Vary: Accept-Encoding`, ETags and `Cache-Control: max-age`.
///
/// ```swift
/// let nginx = try NginxServer(root: site)
/// defer { nginx.stop() }
/// try await page.load(nginx.url.appendingPathComponent("chapter.html"))
/// #expect(nginx.waitForRequests(count: 4).count == 4)
/// ```
/// nginx logs a request when it finishes answering it, so right after a load the last lines may
/// not be there yet: use `waitForRequests(count:timeout:)` rather than `requests()`.
public final class NginxServer: @unchecked Sendable {
    /// The root URL, e.g. `http://127.0.0.1:41234/`.
    public let url: URL
    /// nginx's process id.
    public let pid: Int32
    private let directory: URL
    private let process: NginxProcess
    private let lock = NSLock()
    private var stopped = false

    /// Starts nginx serving `root`. Throws when nginx is not installed or does not start.
    public init(root: URL, options: Options = Options()) throws {
        let binary = try Self.binary()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("headway-nginx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("temp"),
            withIntermediateDirectories: true
        )
        do {
            let port: Int
            (process, pid, port) = try Self.start(
                binary,
                directory: directory,
                root: root.standardizedFileURL,
                options: options
            )
            url = URL(string: "\(options.tls == nil ? "http" : "https")://127.0.0.1:\(port)/")!
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Every request logged so far, oldest first (markers left out).
    public func requests() -> [NginxRequest] {
        loggedRequests().filter { !$0.path.hasPrefix(Self.markerPrefix) }
    }

    /// The requests logged before a marker request sent now. nginx runs as one process (no
    /// workers) and logs a request as it finishes answering it, so once the marker is logged,
    /// so is every request answered before it: a test sees that nothing more came without
    /// waiting out a quiet period. Plain HTTP only.
    public func requestsBeforeMarker() throws -> [NginxRequest] {
        let path = Self.markerPrefix + UUID().uuidString
        _ = try Curl.get(url.appendingPathComponent(String(path.dropFirst())))
        let logged = try waitForBlocking("the marker \(path) in nginx's log", within: .seconds(10),
                                         { loggedRequests() }, until: { $0.contains { $0.path == path } })
        return Array(logged.prefix { $0.path != path }).filter { !$0.path.hasPrefix(Self.markerPrefix) }
    }

    private static let markerPrefix = "/headway-log-marker-"

    private func loggedRequests() -> [NginxRequest] {
        let log = (try? Data(contentsOf: directory.appendingPathComponent("access.log"))) ?? Data()
        return (try? NginxRequest.parse(log: log)) ?? []
    }

    /// Polls the log until it holds at least `count` requests or `timeout` seconds pass, then
    /// returns what it holds.
    @discardableResult
    public func waitForRequests(count: Int, timeout: Double = 5) -> [NginxRequest] {
        let logged = try? waitForBlocking("\(count) requests in nginx's log", within: .seconds(timeout),
                                          { requests() }, until: { $0.count >= count })
        return logged ?? requests()
    }

    /// How many logged requests had this path (query ignored).
    public func requestCount(path: String) -> Int { requests().filter { $0.path == path }.count }

    /// Stops nginx and waits for it to exit (SIGQUIT, then SIGKILL after 5 s). Safe to call
    /// more than once; the log stays readable.
    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        process.stop(nginx: pid)
    }

    /// The error log and the wrapper's stderr, for failure messages.
    public func errorLog() -> String { Self.logs(in: directory) }

    static func logs(in directory: URL) -> String {
        ["error.log", "stderr.log"].compactMap {
            try? String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8)
        }.joined()
    }
}

extension NginxServer {
    static func binary() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let candidates = ["/usr/sbin/nginx"] + path.split(separator: ":").map { "\($0)/nginx" }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw NginxError(
                "nginx is not installed (not in /usr/sbin or on PATH); scripts/setup installs Debian's nginx-light"
            )
        }
        return found
    }

    // Writes a config on a free port and launches nginx, trying a new port when another process
    // took the chosen one first.
    static func start(_ binary: String, directory: URL, root: URL,
                      options: Options) throws -> (NginxProcess, pid: Int32, port: Int) {
        var attempt = 0
        while true {
            attempt += 1
            let port = try freePort()
            let config = Self.config(directory: directory, root: root, port: port, options: options)
            try config.write(to: directory.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
            do {
                let (process, pid) = try launch(binary, directory: directory)
                return (process, pid, port)
            } catch let error as NginxError where error.addressInUse && attempt < 5 {
                continue
            }
        }
    }

    // Starts nginx and waits until it has written its pid file, which it does once it has bound
    // its port.
    private static func launch(_ binary: String, directory: URL) throws -> (NginxProcess, pid: Int32) {
        let pidFile = directory.appendingPathComponent("nginx.pid")
        try? FileManager.default.removeItem(at: pidFile)
        let process = try NginxProcess.spawn([binary, "-c", directory.appendingPathComponent("nginx.conf").path,
                                              "-p", directory.path + "/"],
                                             stderr: directory.appendingPathComponent("stderr.log"))
        var status: Int32?
        let pid = try? waitForBlocking("nginx's pid file \(pidFile.path)", within: .seconds(10),
                                       every: .milliseconds(10), { () -> Int32? in
            if let text = try? String(contentsOf: pidFile, encoding: .utf8),
               let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                return pid
            }
            status = process.exitStatus(within: 0)
            return nil
        }, until: { $0 != nil || status != nil })
        if let pid { return (process, pid) }
        if status == nil { process.stop(nginx: nil) }
        throw NginxError("nginx did not start (exit status \(status.map(String.init) ?? "none, killed after 10 s")): "
            + logs(in: directory))
    }

    /// A loopback port nothing listens on right now.
    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw NginxError("socket failed: errno \(errno)") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw NginxError("could not bind a loopback port: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// Why an ``NginxServer`` could not start.
public struct NginxError: Error, CustomStringConvertible {
    public var description: String
    var addressInUse: Bool { description.contains("Address already in use") }
    init(_ description: String) { self.description = description }
}
