import CHeadwayShims
import CWebKit
public import Foundation

/// A static file server on loopback, built on libsoup's SoupServer, with keep-alive, content
/// types, 404s, a log of the requests it answered and network emulation.
///
/// ```swift
/// let conditions = NetworkConditions(bytesPerSecond: 625_000, latency: .milliseconds(50))
/// let server = try HTTPServer(root: siteDirectory, conditions: conditions)
/// let result = try await page.load(server.url.appendingPathComponent("index.html"))
/// #expect(server.requests.contains { $0.path == "/index.html" })
/// ```
@EngineActor
public final class HTTPServer {
    /// The base URL, such as `http://127.0.0.1:41234/`.
    public let url: URL
    /// The port it listens on, on 127.0.0.1.
    public let port: Int
    /// The directory it serves files from, or nil when it only answers routes.
    public let root: URL?
    // The root's real path (symlinks resolved once, at start); served files must lie under it.
    private let realRoot: String?
    /// The emulated network for responses started from now on.
    public var conditions: NetworkConditions
    // Called for each finished request (for `serve --log` and the CLI's tests).
    package var onRequest: (@Sendable (ServedRequest) -> Void)?

    /// The newest requests answered (at most 10,000 are kept).
    public private(set) var requests: [ServedRequest] = []
    // Every request received, by path, including ones still in flight.
    package private(set) var receivedCounts: [String: Int] = [:]
    // The most requests that were open at once since the last `resetPeak()`.
    package private(set) var peakConcurrentRequests = 0

    private let server: GObjectRef<SoupServer>
    private var routes: [String: HTTPResponse] = [:]
    var transfers: [ObjectIdentifier: Transfer] = [:]
    private var isStopped = false
    private let reaper = IdleConnectionReaper()

    /// Starts listening on 127.0.0.1 (`port` 0 picks a free port).
    public init(root: URL? = nil, port: Int = 0, conditions: NetworkConditions = .none) throws {
        guard (0...65535).contains(port) else {
            throw HeadwayError(.invalidArgument, "--port must be between 0 and 65535")
        }
        if let root {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isDirectory),
                  isDirectory.boolValue else {
                throw HeadwayError(.invalidArgument, "not a directory: \(root.path)")
            }
        }
        self.root = root?.standardizedFileURL
        realRoot = root.flatMap { Self.realPath($0.path) }
        self.conditions = conditions
        server = GObjectRef(taking: hw_soup_server_new("headway"))
        let address = g_inet_socket_address_new_from_string("127.0.0.1", guint(port))!
        defer { g_object_unref(UnsafeMutableRawPointer(address)) }
        var error: UnsafeMutablePointer<GError>?
        let listening = soup_server_listen(server.pointer, cast(address), SoupServerListenOptions(rawValue: 0), &error)
        guard listening != 0 else {
            throw HeadwayError.consuming(error, .serverFailed, "could not listen on 127.0.0.1:\(port)")
        }
        let uris = soup_server_get_uris(server.pointer)
        let uri = OpaquePointer(uris!.pointee.data)
        self.port = Int(g_uri_get_port(uri))
        g_slist_free_full(uris) { g_uri_unref(OpaquePointer($0)) }
        url = URL(string: "http://127.0.0.1:\(self.port)/")!
        let target = ServerTarget(self)
        // Released by GLib's destroy notify when the handler is removed or the server finalized.
        soup_server_add_handler(server.pointer, nil, serverHandle, Unmanaged.passRetained(target).toOpaque(),
                                serverTargetRelease)
    }

    isolated deinit {
        stop()
    }

    // Answers `path` (exact, query ignored) with `response` instead of a file.
    package func route(_ path: String, _ response: HTTPResponse) {
        routes[path] = response
    }

    package func resetPeak() { peakConcurrentRequests = transfers.count }

    // How many requests for `path` arrived.
    package func requestCount(path: String) -> Int { receivedCounts[path] ?? 0 }

    /// Stops listening and drops every open connection.
    public func stop() {
        guard !isStopped else { return }
        isStopped = true
        for transfer in transfers.values { transfer.cancel() }
        transfers.removeAll()
        reaper.stopAll()
        soup_server_remove_handler(server.pointer, nil)
        soup_server_disconnect(server.pointer)
    }

    // MARK: Handling

    func handle(_ message: OpaquePointer, path: String) {
        let method = String(cString: soup_server_message_get_method(message))
        receivedCounts[path, default: 0] += 1
        let transfer = Transfer(server: self, message: message, method: method, path: path)
        transfers[ObjectIdentifier(transfer)] = transfer
        peakConcurrentRequests = max(peakConcurrentRequests, transfers.count)
        if let response = routes[path] {
            transfer.respond(response)
        } else if method != "GET" && method != "HEAD" {
            transfer.respond(HTTPResponse(status: 405, headers: [("Allow", "GET, HEAD")]))
        } else if let file = resolve(path) {
            transfer.respondWithFile(file)
        } else {
            transfer.respond(.html("<!doctype html><title>Not found</title><h1>404 Not found</h1>", status: 404))
        }
    }

    // Maps a URL path to a file under `root`, refusing anything that escapes it: `..`, dot
    // files, and symlinks (to files or directories) whose real path lies outside the root.
    func resolve(_ path: String) -> URL? {
        guard let root, let realRoot, let decoded = path.removingPercentEncoding, decoded.hasPrefix("/") else {
            return nil
        }
        let parts = decoded.split(separator: "/", omittingEmptySubsequences: true)
        guard !parts.contains(where: { $0 == ".." || $0.hasPrefix(".") || $0.contains("\0") }) else { return nil }
        let file = parts.reduce(root) { $0.appendingPathComponent(String($1)) }
        guard var real = Self.realPath(file.path), Self.isInside(real, realRoot) else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: real, isDirectory: &isDirectory) else { return nil }
        if isDirectory.boolValue {
            guard let index = Self.realPath(real + "/index.html"), Self.isInside(index, realRoot) else { return nil }
            real = index
        }
        return URL(fileURLWithPath: real)
    }

    // The path with every symlink, `.` and `..` resolved, or nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func isInside(_ path: String, _ root: String) -> Bool {
        path == root || path.hasPrefix(root == "/" ? "/" : root + "/")
    }

    func finished(_ transfer: Transfer, _ record: ServedRequest?, socket: UnsafeMutablePointer<GSocket>?) {
        transfers[ObjectIdentifier(transfer)] = nil
        if let socket, !isStopped, IdleConnectionReaper.isNeeded {
            // Watched from the next loop iteration, once libsoup has closed the connection or
            // started waiting on it for the next request. The reference keeps it until then.
            g_object_ref(UnsafeMutableRawPointer(socket))
            nonisolated(unsafe) let socket = socket
            Task { @EngineActor [weak self] in
                if let self, !self.isStopped { self.reaper.watch(socket) }
                g_object_unref(UnsafeMutableRawPointer(socket))
            }
        }
        guard let record else { return }
        if requests.count >= 10_000 { requests.removeFirst(requests.count - 9_999) }
        requests.append(record)
        onRequest?(record)
    }
}

typealias ServerTarget = Weak<HTTPServer>

private func serverTargetRelease(_ data: gpointer?) {
    Unmanaged<ServerTarget>.fromOpaque(data!).release()
}

private func serverHandle(_ server: UnsafeMutablePointer<SoupServer>?, _ message: OpaquePointer?,
                          _ path: UnsafePointer<CChar>?, _ query: OpaquePointer?, _ data: gpointer?) {
    guard let rawMessage = message, let data else { return }
    let target = Unmanaged<ServerTarget>.fromOpaque(data).takeUnretainedValue()
    let path = path.map { String(cString: $0) } ?? "/"
    nonisolated(unsafe) let message = rawMessage
    EngineActor.assumeIsolated {
        target.object?.handle(message, path: path)
    }
}
