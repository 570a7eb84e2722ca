import Foundation
import Headway
import HeadwayWebDriver
import Synchronization
import Testing

// The WebDriver server's WebSocket (what WebDriver BiDi runs on), over real loopback sockets with
// hand-made frames, against an endpoint that echoes, or holds, what it gets. No WebKit.
@Suite("WebDriver server: WebSocket", .serialized)
struct WebSocketTests {
    // Echoes each text message ("hold" is kept unanswered); counts the messages it got.
    final class Echo: WebSocketEndpoint {
        let received = Mutex(0)
        let held = Mutex<[WebSocketSink]>([])

        func accepts(path: String) async -> Bool { path == "/session" }

        func serve(path: String, messages: AsyncStream<WebSocketMessage>, sink: WebSocketSink) async {
            for await message in messages {
                received.withLock { $0 += 1 }
                switch message {
                case .text("hold"): held.withLock { $0.append(sink) }
                case .text(let text): sink.send(text, answers: true)
                case .binary: sink.send("binary", answers: true)
                }
            }
        }
    }

    static func server(_ echo: Echo, _ limits: WebSocketLimits = .standard) throws -> WebDriverHTTPServer {
        try WebDriverHTTPServer(port: 0, webSocket: echo, webSocketLimits: limits) { _, _, _ in
            (404, WebDriverError(.unknownCommand, "no such endpoint").body)
        }
    }

    static func connected(_ server: WebDriverHTTPServer) throws -> HTTPTestClient {
        let client = try HTTPTestClient(port: server.port)
        #expect(client.upgrade("/session") == 101)
        return client
    }

    @Test func textIsEchoedWholeFragmentsJoinedAndPingsAnswered() throws {
        let server = try Self.server(Echo())
        defer { server.stop() }
        let client = try Self.connected(server)
        client.sendText("héllo")
        #expect(client.frame()?.text == "héllo")
        client.sendFrame(opcode: 1, Array("frag".utf8), fin: false)
        client.sendFrame(opcode: 0, Array("ments".utf8))
        #expect(client.frame()?.text == "fragments")
        client.sendFrame(opcode: 9, [1, 2, 3])
        let pong = client.frame()
        #expect(pong?.opcode == 10 && pong?.payload == [1, 2, 3])
        // A close is echoed, then the server closes.
        client.sendFrame(opcode: 8, [0x03, 0xE8])
        #expect(client.frame(opcode: 8)?.closeCode == 1000)
        #expect(client.closedByServer())
        HostileClientTests.waitUntil { server.openConnections == 0 }
        #expect(server.openConnections == 0)
    }

    @Test func refusedPathsAndWebPagesGetNoWebSocket() throws {
        let server = try Self.server(Echo())
        defer { server.stop() }
        // A path the endpoint refuses goes on as an HTTP request.
        #expect(try HTTPTestClient(port: server.port).upgrade("/elsewhere") == 404)
        // A web page's handshake carries Origin: refused as any request from a page is.
        #expect(try HTTPTestClient(port: server.port).upgrade("/session", headers: ["Origin: http://evil.example"])
                == 403)
    }

    @Test func protocolBreachesCloseWithTheirCodes() throws {
        var limits = WebSocketLimits()
        limits.maxMessageBytes = 1024
        let server = try Self.server(Echo(), limits)
        defer { server.stop() }
        let unmasked = try Self.connected(server)
        unmasked.sendFrame(opcode: 1, Array("plain".utf8), masked: false)
        #expect(unmasked.frame(opcode: 8)?.closeCode == 1002)
        let broken = try Self.connected(server)
        broken.sendFrame(opcode: 1, [0xC3, 0x28])
        #expect(broken.frame(opcode: 8)?.closeCode == 1007)
        let large = try Self.connected(server)
        large.sendText(String(repeating: "x", count: 2048))
        #expect(large.frame(opcode: 8)?.closeCode == 1009)
        let fragmented = try Self.connected(server)
        for _ in 0..<3 { fragmented.sendFrame(opcode: 1, [UInt8](repeating: 120, count: 500), fin: false) }
        #expect(fragmented.frame(opcode: 8)?.closeCode == 1009)
        #expect([unmasked, broken, large, fragmented].allSatisfy { $0.closedByServer() })
    }

    @Test func aClientThatSendsWithoutAnswersWaitsForThemAndNothingPilesUp() throws {
        var limits = WebSocketLimits()
        limits.maxUnanswered = 4
        let echo = Echo()
        let server = try Self.server(echo, limits)
        defer { server.stop() }
        let client = try Self.connected(server)
        for _ in 0..<200 { client.sendText("hold") }
        HostileClientTests.waitUntil(within: .seconds(5)) { echo.received.withLock { $0 } >= 4 }
        usleep(500_000)
        // The server read no more than it may leave unanswered.
        #expect(echo.received.withLock { $0 } == 4)
        // Answering lets it read on.
        for sink in echo.held.withLock({ $0 }) { sink.send("done", answers: true) }
        HostileClientTests.waitUntil(within: .seconds(5)) { echo.received.withLock { $0 } >= 8 }
        #expect(echo.received.withLock { $0 } == 8)
    }
}
