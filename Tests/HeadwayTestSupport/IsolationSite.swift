import Foundation

/// A raw-socket HTTP/1.1 server on 127.0.0.1 (keep-alive) for isolation tests: it numbers its
/// connections and records, per request, the connection, path, `Authorization` and `Cookie`.
///
/// - `/page.html`: a page that loads `/cached.js` (cacheable for an hour);
/// - `/cookie.html`: sets an HttpOnly cookie and a script-visible one;
/// - `/auth`: 401 with a Basic challenge unless the request carries `u:p`;
/// - `/sw.js`: a service worker that answers `/sw-probe` itself ("from-sw");
/// - `/sw-probe`: "from-server"; `/beacon`: 204; anything else: 404.
public final class IsolationSite: @unchecked Sendable {
    public struct Request: Sendable {
        public let connection: Int
        public let path: String
        public let authorization: String?
        public let cookie: String?
    }

    public let port: Int
    public var url: URL { URL(string: "http://127.0.0.1:\(port)/")! }
    private let listener: Int32
    private let lock = NSLock()
    private var recorded: [Request] = []
    private var connections = 0

    /// The requests received so far, in order.
    public var requests: [Request] { lock.withLock { recorded } }

    /// The requests for `path` (without the query).
    public func requests(for path: String) -> [Request] { requests.filter { $0.path == path } }

    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw CLIError("the isolation site could not listen")
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Stops listening; connections in progress end on their own.
    public func stop() { shutdown(listener, Int32(SHUT_RDWR)) }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            let number = lock.withLock {
                connections += 1
                return connections
            }
            Thread.detachNewThread { [self] in serve(client, connection: number) }
        }
    }

    private func serve(_ client: Int32, connection: Int) {
        defer { close(client) }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            while let end = received.range(of: Data("\r\n\r\n".utf8)) {
                let head = String(decoding: received[..<end.lowerBound], as: UTF8.self)
                received.removeSubrange(..<end.upperBound)
                let response = answer(head, connection: connection)
                _ = response.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            }
            let count = recv(client, &buffer, buffer.count, 0)
            guard count > 0 else { return }
            received.append(contentsOf: buffer[..<count])
        }
    }

    private func answer(_ head: String, connection: Int) -> Data {
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let target = lines.first?.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
        let path = String(target.split(separator: "?", maxSplits: 1).first ?? "/")
        func header(_ name: String) -> String? {
            lines.dropFirst().first { $0.lowercased().hasPrefix(name.lowercased() + ":") }
                .map { $0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces) }
        }
        let authorization = header("Authorization")
        lock.withLock {
            recorded.append(Request(connection: connection, path: path, authorization: authorization,
                                    cookie: header("Cookie")))
        }
        let html = "text/html; charset=utf-8"
        switch path {
        case "/page.html":
            return Self.response(200, html, "<!doctype html><title>isolation</title><script src=/cached.js></script>")
        case "/cached.js":
            return Self.response(200, "text/javascript", "window.cachedScript = true;",
                                 ["Cache-Control: max-age=3600", "ETag: \"v1\""])
        case "/cookie.html":
            return Self.response(200, html, "<!doctype html><title>cookie</title>",
                                 ["Set-Cookie: server=1; Path=/; HttpOnly; Max-Age=3600",
                                  "Set-Cookie: visible=1; Path=/; Max-Age=3600"])
        case "/auth" where authorization == "Basic dTpw":
            return Self.response(200, html, "<!doctype html><title>authenticated</title>")
        case "/auth":
            return Self.response(401, html, "<!doctype html><title>denied</title>",
                                 ["WWW-Authenticate: Basic realm=\"isolation\""])
        case "/sw.js":
            return Self.response(200, "text/javascript", """
                self.addEventListener('install', () => self.skipWaiting());
                self.addEventListener('activate', e => e.waitUntil(self.clients.claim()));
                self.addEventListener('fetch', e => {
                  if (new URL(e.request.url).pathname === '/sw-probe') e.respondWith(new Response('from-sw'));
                });
                """)
        case "/sw-probe": return Self.response(200, "text/plain", "from-server", ["Cache-Control: no-store"])
        case "/beacon": return Self.response(204, "text/plain", "")
        default: return Self.response(404, "text/plain", "not found")
        }
    }

    private static func response(_ status: Int, _ type: String, _ body: String, _ headers: [String] = []) -> Data {
        let reason = [200: "OK", 204: "No Content", 401: "Unauthorized", 404: "Not Found"][status] ?? "OK"
        let length = status == 204 ? 0 : body.utf8.count
        let head = (["HTTP/1.1 \(status) \(reason)", "Content-Type: \(type)", "Content-Length: \(length)"] + headers)
            .joined(separator: "\r\n")
        return Data((head + "\r\n\r\n" + (status == 204 ? "" : body)).utf8)
    }
}
