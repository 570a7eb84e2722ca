import Foundation
import Headway
import HeadwayWebDriver
import Testing

// The HTTP layer over real loopback sockets, with a handler that only echoes (no WebKit).
@Suite("WebDriver HTTP server", .serialized)
struct HTTPServerTests {
    final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var finished: [String] = []
        private var arrived = 0
        func arrive() { lock.withLock { arrived += 1 } }
        var arrivals: Int { lock.withLock { arrived } }
        func add(_ path: String) { lock.withLock { finished.append(path) } }
        var paths: [String] { lock.withLock { finished } }
    }

    static func server(_ limits: HTTPLimits = .standard, log: Log = Log()) throws -> WebDriverHTTPServer {
        try WebDriverHTTPServer(port: 0, limits: limits) { method, path, body in
            if path == "/slow" { try? await Task.sleep(for: .milliseconds(500)) }
            // Waits a minute unless cancelled, and says which.
            if path == "/hang" {
                try? await Task.sleep(for: .seconds(60))
                log.add(Task.isCancelled ? "/hang cancelled" : "/hang")
                return (200, .null)
            }
            // Answers once four such requests are in the handler at once (or after 10 s).
            if path == "/meet" {
                log.arrive()
                let deadline = ContinuousClock.now + .seconds(10)
                while log.arrivals < 4, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(10)) }
                return (200, ["value": .bool(log.arrivals >= 4)])
            }
            log.add(path)
            let bytes = JSONValue.number(Double(body.count))
            return (200, ["value": ["method": .string(method), "path": .string(path), "bytes": bytes]])
        }
    }

    @Test func keepAliveServesRequestsInTurnWithJSONHeaders() throws {
        let server = try Self.server()
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        client.request("GET", "/status")
        let first = try #require(client.response())
        #expect(first.status == 200)
        #expect(first.headers["content-type"] == "application/json; charset=utf-8")
        #expect(first.headers["cache-control"] == "no-cache")
        #expect(first.json?["value"]?["path"] == "/status")
        // Two pipelined on the same connection, the second with a body.
        client.send("GET /a HTTP/1.1\r\nHost: localhost:4444\r\n\r\nPOST /b HTTP/1.1\r\nHost: [::1]:1\r\n"
            + "Content-Length: 5\r\n\r\nhello")
        #expect(client.response()?.json?["value"]?["path"] == "/a")
        let second = try #require(client.response())
        #expect(second.json?["value"]?["method"] == "POST" && second.json?["value"]?["bytes"] == 5)
        client.request("GET", "/last", headers: ["Connection: close"])
        #expect(client.response()?.status == 200)
        #expect(client.closedByServer())
    }

    @Test func expectContinueGetsAnInterimAnswerBeforeTheBody() throws {
        let server = try Self.server()
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        client.send("POST /session HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n")
        #expect(client.response()?.status == 100)
        client.send("{}")
        #expect(client.response()?.json?["value"]?["bytes"] == 2)
    }

    @Test func malformedRequestsAreRefusedWithWebDriverErrors() throws {
        let server = try Self.server()
        defer { server.stop() }
        let cases: [(String, Int)] = [
            ("GARBAGE\r\n\r\n", 400),
            ("GET /x HTTP/1.1 extra\r\nHost: a\r\n\r\n", 400),
            ("GET x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 400),
            ("GET /x HTTP/2.0\r\nHost: 127.0.0.1\r\n\r\n", 505),
            ("GET /x HTTP/1.1\r\nHost: 127.0.0.1\r\n folded\r\n\r\n", 400),
            ("POST /x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", 400),
            ("POST /x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: -1\r\n\r\n", 400),
            ("POST /x HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 411),
            ("POST /x HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: magic\r\nContent-Length: 0\r\n\r\n", 417),
            ("GET /x HTTP/1.1\r\n\r\n", 400),
        ]
        for (request, status) in cases {
            let client = try HTTPTestClient(port: server.port)
            client.send(request)
            let response = try #require(client.response(), "no answer to \(request.debugDescription)")
            #expect(response.status == status, "\(request.debugDescription)")
            #expect(response.error == "invalid argument", "\(request.debugDescription)")
            #expect(response.headers["connection"] == "close")
        }
    }

    @Test func hostsOtherThanLoopbackNamesAndWebPagesAreRefused() throws {
        let server = try Self.server()
        defer { server.stop() }
        for host in ["evil.example", "localhost.evil.example:4444", "127.0.0.1.nip.io"] {
            let client = try HTTPTestClient(port: server.port)
            client.send("GET /status HTTP/1.1\r\nHost: \(host)\r\n\r\n")
            let response = try #require(client.response())
            #expect(response.status == 500 && response.error == "unknown error", "\(host)")
        }
        // A web page's request is forbidden: any origin but the server's own (which websocket-client
        // sends on its handshake), a loopback one on another port included.
        for origin in ["http://evil.example", "http://127.0.0.1:\(server.port + 1)", "https://127.0.0.1:\(server.port)",
                       "null", "http://127.0.0.1.nip.io:\(server.port)"] {
            let page = try HTTPTestClient(port: server.port)
            page.request("GET", "/status", headers: ["Origin: \(origin)"])
            #expect(page.response()?.status == 403, "\(origin)")
        }
        for origin in ["http://127.0.0.1:\(server.port)", "http://localhost:\(server.port)/"] {
            let own = try HTTPTestClient(port: server.port)
            own.request("GET", "/status", headers: ["Origin: \(origin)"])
            #expect(own.response()?.status == 200, "\(origin)")
        }
        for host in ["localhost:4444", "LOCALHOST", "127.0.0.1:9", "[::1]:4444", "10.1.2.3"] {
            let client = try HTTPTestClient(port: server.port)
            client.send("GET /status HTTP/1.1\r\nHost: \(host)\r\n\r\n")
            #expect(client.response()?.status == 200, "\(host)")
        }
    }

    @Test func aBodyOverTheLimitIsRefusedUnreadAndTheHeadIsBounded() throws {
        var limits = HTTPLimits()
        limits.maxBodyBytes = 1_000
        limits.maxHeaderBytes = 2_000
        let log = Log()
        let server = try Self.server(limits, log: log)
        defer { server.stop() }
        let big = try HTTPTestClient(port: server.port)
        // Announces 100 MB and sends none of it: the answer must not wait for the body.
        big.send("POST /session HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000000\r\n\r\n")
        let refused = try #require(big.response())
        #expect(refused.status == 413 && refused.error == "invalid argument")
        #expect(big.closedByServer())
        let long = try HTTPTestClient(port: server.port)
        long.send("GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Long: " + String(repeating: "a", count: 5_000))
        #expect(long.response()?.status == 431)
        #expect(log.paths.isEmpty)
        let fits = try HTTPTestClient(port: server.port)
        fits.request("POST", "/ok", body: String(repeating: "b", count: 1_000))
        #expect(fits.response()?.json?["value"]?["bytes"] == 1_000)
    }

    @Test func bodiesHeldAtOnceAreBoundedOverAllConnections() throws {
        var limits = HTTPLimits()
        limits.maxBufferedBodyBytes = 1_500
        let server = try Self.server(limits)
        defer { server.stop() }
        // One client holds the 900 bytes of its body that arrived (not the 1,000 it announced).
        let slow = try HTTPTestClient(port: server.port)
        slow.send("POST /a HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n"
            + String(repeating: "a", count: 900))
        let deadline = ContinuousClock.now + .seconds(10)
        while server.bodyBytesHeld < 900, ContinuousClock.now < deadline { usleep(10_000) }
        #expect(server.bodyBytesHeld == 900)
        let other = try HTTPTestClient(port: server.port)
        other.request("POST", "/b", body: String(repeating: "b", count: 800))
        let refused = try #require(other.response())
        #expect(refused.status == 503 && refused.error == "unknown error")
        slow.send(String(repeating: "c", count: 100))
        #expect(slow.response()?.json?["value"]?["bytes"] == 1_000)
        let after = try HTTPTestClient(port: server.port)
        after.request("POST", "/c", body: String(repeating: "b", count: 800))
        #expect(after.response()?.status == 200)
    }

    @Test func slowClientsAreCutOffAfterTheirTimeouts() async throws {
        var limits = HTTPLimits()
        limits.headerTimeout = .milliseconds(300)
        limits.bodyGrace = .milliseconds(300)
        limits.keepAliveTimeout = .milliseconds(300)
        let server = try Self.server(limits)
        defer { server.stop() }
        let dribbling = try HTTPTestClient(port: server.port)
        dribbling.send("GET /status HTTP/1.1\r\n")
        #expect(dribbling.response()?.status == 408)
        let body = try HTTPTestClient(port: server.port)
        body.send("POST /x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 10\r\n\r\nabc")
        #expect(body.response()?.status == 408)
        let idle = try HTTPTestClient(port: server.port)
        idle.request("GET", "/one")
        #expect(idle.response()?.status == 200)
        #expect(idle.closedByServer())
        // Every connection ends (after at most a second of lingering for a refused one).
        let deadline = ContinuousClock.now + .seconds(5)
        while server.openConnections > 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(server.openConnections == 0)
    }

    @Test func aClientGoneMidRequestOrMidCommandLeavesTheServerServing() async throws {
        let log = Log()
        let server = try Self.server(log: log)
        defer { server.stop() }
        do {
            let half = try HTTPTestClient(port: server.port)
            half.send("POST /x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\nabc")
        }
        do {
            let impatient = try HTTPTestClient(port: server.port)
            impatient.request("GET", "/slow")
            try await Task.sleep(for: .milliseconds(50))
        }
        // The command runs to its end though no one waits for its answer.
        let deadline = ContinuousClock.now + .seconds(10)
        while !log.paths.contains("/slow"), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(log.paths.contains("/slow"))
        #expect(!log.paths.contains("/x"))
        let next = try HTTPTestClient(port: server.port)
        next.request("GET", "/after")
        #expect(next.response()?.status == 200)
    }

    @Test func connectionsRunInParallel() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let clients = try (0..<4).map { _ in try HTTPTestClient(port: server.port) }
        for client in clients { client.request("GET", "/meet") }
        // Each answers true only if all four were in the handler together.
        for client in clients { #expect(client.response()?.json?["value"] == true) }
    }

    @Test func aPortInUseIsServerFailed() throws {
        let server = try Self.server()
        defer { server.stop() }
        #expect { try WebDriverHTTPServer(port: server.port) { _, _, _ in (200, .null) } }
            throws: { ($0 as? HeadwayError)?.code == .serverFailed }
    }
}

// The real service behind the socket: error shapes of unknown paths and methods, status.
@Suite("WebDriver HTTP server with the service", .serialized)
struct HTTPServiceTests {
    @EngineActor
    static func service() -> WebDriverService {
        var options = WebDriverService.Options()
        options.warmBrowsers = 0
        return WebDriverService(options: options)
    }

    @Test func unknownPathsAndMethodsAnswerTheSpecShapes() async throws {
        let service = await Self.service()
        let server = try WebDriverHTTPServer(port: 0) { method, path, body in
            await service.handle(method: method, path: path, body: body)
        }
        defer { server.stop() }
        // Blocking socket reads: on a thread of their own, off the engine and the pool's threads.
        let answers = await Task.detached {
            let client = try? HTTPTestClient(port: server.port)
            client?.request("GET", "/status")
            let status = client?.response()
            client?.request("GET", "/no/such/thing")
            let unknown = client?.response()
            client?.request("PUT", "/status")
            let method = client?.response()
            client?.request("POST", "/session", body: "{not json")
            let bad = client?.response()
            client?.request("GET", "/session/nope/url")
            let session = client?.response()
            return [status, unknown, method, bad, session]
        }.value
        #expect(answers[0]?.status == 200 && answers[0]?.json?["value"]?["ready"] == true)
        #expect(answers[1]?.status == 404 && answers[1]?.error == "unknown command")
        #expect(answers[2]?.status == 405 && answers[2]?.error == "unknown method")
        #expect(answers[3]?.status == 400 && answers[3]?.error == "invalid argument")
        #expect(answers[4]?.status == 404 && answers[4]?.error == "invalid session id")
        for answer in answers {
            #expect(answer?.json?["value"]?["message"]?.stringValue?.isEmpty == false || answer?.status == 200)
            #expect(answer?.json?["value"]?["stacktrace"] != nil || answer?.status == 200)
        }
        await service.shutdown()
    }

    @Test func aClientGoneWhileItsCommandRunsLeavesTheSessionUsable() async throws {
        // Queued behind the abandoned script, then answered.
        let script = "const done = arguments[0]; setTimeout(() => done(1), 1000)"
        let (answer, deleted) = try await Self.sessionAfterAClientLeaves(
            "execute/async", body: #"{"script": "\#(script)", "args": []}"#, hangingUpAfter: 100_000
        )
        #expect(answer == 42)
        #expect(deleted == 200)
    }

    // Opens a session on a server over the real service; a second client sends `command` with
    // `body` to it and hangs up after `wait` µs. Then the first client runs `return 6 * 7` and
    // deletes the session: that script's value and the delete's status.
    static func sessionAfterAClientLeaves(
        _ command: String, body: String, hangingUpAfter wait: useconds_t
    ) async throws -> (answer: JSONValue?, deleted: Int?) {
        let service = await Self.service()
        let server = try WebDriverHTTPServer(port: 0) { method, path, body in
            await service.handle(method: method, path: path, body: body)
        }
        defer { server.stop() }
        let port = server.port
        // Blocking socket reads: on a thread of their own, off the engine and the pool's threads.
        let answers = await Task.detached { () -> (JSONValue?, Int?) in
            guard let client = try? HTTPTestClient(port: port) else { return (nil, nil) }
            client.request("POST", "/session", body: #"{"capabilities": {}}"#)
            let id = client.response()?.json?["value"]?["sessionId"]?.stringValue ?? "none"
            do {
                let leaving = try? HTTPTestClient(port: port)
                leaving?.request("POST", "/session/\(id)/\(command)", body: body)
                usleep(wait)
            }
            client.request("POST", "/session/\(id)/execute/sync", body: #"{"script": "return 6 * 7", "args": []}"#)
            let answer = client.response()?.json?["value"]
            client.request("DELETE", "/session/\(id)")
            return (answer, client.response()?.status)
        }.value
        await service.shutdown()
        return answers
    }
}
