import Foundation
import Headway
import HeadwayWebDriver
import Testing

// Clients that try to lock others out of the server, over real loopback sockets (no WebKit): each
// case a probe found against the thread-per-connection server.
@Suite("WebDriver HTTP server against hostile clients", .serialized)
struct HostileClientTests {
    typealias Log = HTTPServerTests.Log

    // Waits (bounded) until `done` holds.
    static func waitUntil(within limit: Duration = .seconds(30), _ done: () -> Bool) {
        let deadline = ContinuousClock.now + limit
        while !done(), ContinuousClock.now < deadline { usleep(10_000) }
    }

    static var threads: Int { (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? 0 }

    @Test func socketsThatSendNothingLeaveRoomForClientsAndAreClosed() throws {
        var limits = HTTPLimits()
        limits.headerTimeout = .seconds(2)
        let server = try HTTPServerTests.server(limits)
        defer { server.stop() }
        let silent = try (0..<limits.maxConnections).map { _ in try HTTPTestClient(port: server.port) }
        Self.waitUntil { server.openConnections == limits.maxConnections }
        #expect(server.openConnections == limits.maxConnections)
        // At the cap, the connection idle longest makes room.
        let client = try HTTPTestClient(port: server.port)
        client.request("GET", "/status")
        #expect(client.response()?.status == 200)
        // Every silent one is closed unanswered once its first head is overdue.
        #expect(silent.allSatisfy { $0.closedByServer() })
        Self.waitUntil { server.openConnections <= 1 }
        #expect(server.openConnections <= 1)
    }

    @Test func aThousandIdleConnectionsTakeNoThreadEach() throws {
        var limits = HTTPLimits()
        limits.maxConnections = 1_100
        limits.headerTimeout = .seconds(600)
        let server = try HTTPServerTests.server(limits)
        defer { server.stop() }
        let before = Self.threads
        let clients = try (0..<1_000).map { _ in try HTTPTestClient(port: server.port) }
        Self.waitUntil { server.openConnections == 1_000 }
        #expect(server.openConnections == 1_000)
        #expect(Self.threads - before < 50, "\(before) threads before, \(Self.threads) with 1,000 connections")
        clients[999].request("GET", "/last")
        #expect(clients[999].response()?.status == 200)
    }

    @Test func bodiesThatTrickleHoldOnlyWhatArrivedAndAreDropped() throws {
        var limits = HTTPLimits()
        limits.bodyGrace = .seconds(1)
        let log = Log()
        let server = try HTTPServerTests.server(limits, log: log)
        defer { server.stop() }
        // Five announce 64 MiB bodies and send a byte, then another.
        let trickling = try (0..<5).map { _ in try HTTPTestClient(port: server.port) }
        for client in trickling {
            client.send("POST /slow-body HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(64 << 20)\r\n\r\n{")
        }
        Self.waitUntil { server.bodyBytesHeld == 5 }
        #expect(server.bodyBytesHeld == 5)
        for client in trickling { client.send(" ") }
        let other = try HTTPTestClient(port: server.port)
        other.request("POST", "/fits", body: String(repeating: "b", count: 1 << 20))
        #expect(other.response()?.json?["value"]?["bytes"] == .number(Double(1 << 20)))
        for client in trickling {
            let answer = try #require(client.response())
            #expect(answer.status == 408 && answer.error == "invalid argument")
        }
        #expect(!log.paths.contains("/slow-body"))
        Self.waitUntil { server.bodyBytesHeld == 0 }
        #expect(server.bodyBytesHeld == 0)
    }

    @Test func aHeadOverTheLimitInOneWriteIs431() throws {
        let log = Log()
        let server = try HTTPServerTests.server(log: log)
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        client.send("GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Long: " + String(repeating: "a", count: 70_000)
            + "\r\n\r\n")
        let answer = try #require(client.response())
        #expect(answer.status == 431 && answer.error == "invalid argument")
        #expect(client.closedByServer())
        // Just within the limit: served.
        let fits = try HTTPTestClient(port: server.port)
        let head = "GET /fits HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Long: \r\n\r\n"
        fits.send(head.replacingOccurrences(of: "X-Long: ", with: "X-Long: "
            + String(repeating: "a", count: HTTPLimits.standard.maxHeaderBytes - head.utf8.count)))
        #expect(fits.response()?.status == 200)
        #expect(log.paths == ["/fits"])
    }

    @Test func twoHostsOrAnAbsoluteTargetNamingAnotherHostAre400() throws {
        let log = Log()
        let server = try HTTPServerTests.server(log: log)
        defer { server.stop() }
        let port = server.port
        let cases: [(String, Int)] = [
            ("GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\n\r\n", 400),
            ("GET /status HTTP/1.1\r\nHost: 127.0.0.1\r\nhost: 127.0.0.1\r\n\r\n", 400),
            ("GET http://evil.example/status HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n", 400),
            ("GET http://127.0.0.1:\(port)/status HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 400),
            ("GET http://evil.example/status HTTP/1.1\r\nHost: evil.example\r\n\r\n", 500),
            ("GET http://127.0.0.1:\(port)/status HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n", 200),
            ("GET http://user@LOCALHOST:\(port)/status?a=1 HTTP/1.1\r\nHost: localhost:\(port)\r\n\r\n", 200),
        ]
        for (request, status) in cases {
            let client = try HTTPTestClient(port: port)
            client.send(request)
            let answer = try #require(client.response(), "no answer to \(request.debugDescription)")
            #expect(answer.status == status, "\(request.debugDescription)")
        }
        #expect(log.paths == ["/status", "/status?a=1"])
    }

    @Test func aClientHangingUpCancelsItsCommandAndPipelinedRequestsWait() throws {
        let log = Log()
        let server = try HTTPServerTests.server(log: log)
        defer { server.stop() }
        do {
            let leaving = try HTTPTestClient(port: server.port)
            leaving.request("GET", "/hang")
            Self.waitUntil { server.openConnections == 1 }
        }
        Self.waitUntil { log.paths.contains("/hang cancelled") }
        #expect(log.paths == ["/hang cancelled"])
        // Three in one write: answered in order, one at a time.
        let client = try HTTPTestClient(port: server.port)
        client.send((1...3).map { "GET /\($0) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" }.joined())
        for index in 1...3 { #expect(client.response()?.json?["value"]?["path"] == .string("/\(index)")) }
    }
}
