import Foundation
import Headway
import HeadwayWebDriver
import Testing

// What a hostile page or client sends must end in a WebDriver error, never a crash or an
// unbounded wait.
@Suite("WebDriver safety", .serialized)
@EngineActor
struct SafetyTests {
    typealias F = InteractionFixtures

    let server: HTTPServer
    let driver = WebDriverDriver()

    init() throws {
        server = try HTTPServer()
        server.route("/page.html", .html("""
            <body style="margin: 0"><input id=file type=file><div style="height: 100px"></div></body>
            """))
    }

    func open() async throws -> String {
        let id = try await driver.newSession()
        _ = try await driver.navigate(id, server, "page.html")
        return id
    }

    func perform(_ id: String, _ actions: [JSONValue], type: String = "pointer") async throws {
        _ = try await driver.send(.performActions, id, ["actions": [["type": .string(type), "id": .string(type),
                                                                      "actions": .array(actions)]]])
    }

    @Test func aPageLyingAboutItsViewportGetsOutOfBoundsNotACrash() async throws {
        defer { server.stop(); driver.service.shutdown() }
        let id = try await open()
        _ = try await driver.script(id, """
            Object.defineProperty(window, 'innerWidth', { value: 1e300 });
            Object.defineProperty(window, 'innerHeight', { value: 1e300 })
            """)
        await #expect { try await perform(id, [["type": "pointerMove", "x": 1e9, "y": 10]]) }
            throws: { code($0) == .moveTargetOutOfBounds }
    }

    @Test func hugeWheelDeltasAndCoordinatesAreInvalidArguments() async throws {
        defer { server.stop(); driver.service.shutdown() }
        let id = try await open()
        await #expect { try await perform(id, [["type": "scroll", "x": 1, "y": 1, "deltaX": 0, "deltaY": 1e7]],
                                          type: "wheel") }
            throws: { code($0) == .invalidArgument && "\($0)".contains("deltaY") }
        await #expect { try await perform(id, [["type": "pointerMove", "x": 1e12, "y": 1]]) }
            throws: { code($0) == .invalidArgument && "\($0)".contains(".x") }
    }

    @Test func aFileOverTheCapIsRefusedNamingIt() async throws {
        defer { server.stop(); driver.service.shutdown() }
        let id = try await open()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("headway-big-\(UUID()).bin")
        // Sparse: 65 MiB that take no disk.
        #expect(FileManager.default.createFile(atPath: path.path, contents: nil))
        defer { try? FileManager.default.removeItem(at: path) }
        let handle = try FileHandle(forWritingTo: path)
        try handle.truncate(atOffset: 65 << 20)
        try handle.close()
        let input = try await F.element(driver, id, "#file")
        await #expect { try await driver.send(.elementSendKeys, id, ["text": .string(path.path)],
                                              parameters: ["elementId": F.elementID(input)]) }
            throws: { code($0) == .invalidArgument && "\($0)".contains(path.lastPathComponent)
                && "\($0)".contains("64 MiB") }
    }

    @Test func aLongPauseEndsWhenTheSessionIsDeleted() async throws {
        defer { server.stop(); driver.service.shutdown() }
        let id = try await open()
        let driver = self.driver
        let pausing = Task { @EngineActor in
            try await driver.send(.performActions, id, ["actions": [
                ["type": "none", "id": "n", "actions": [["type": "pause", "duration": 600_000]]],
            ]])
        }
        // Until the pause runs (bounded).
        for _ in 0..<100 where (try? driver.service.registry.session(id))?.queue.isBusy != true {
            try await Task.sleep(for: .milliseconds(20))
        }
        _ = try await driver.send(.deleteSession, id)
        await #expect(throws: (any Error).self) { try await pausing.value }
        await #expect { try await driver.send(.getTitle, id) } throws: { code($0) == .invalidSessionID }
    }

    @Test func theKeptLoadsHoldAtMostTheirShareOfRequests() async throws {
        defer { server.stop(); driver.service.shutdown() }
        let id = try await driver.newSession(["alwaysMatch": ["headway:options": ["har": true]]])
        _ = try await driver.navigate(id, server, "page.html")
        let session = try driver.service.registry.session(id)
        var load = try #require(session.loads.last)
        let entry = try #require(load.resourceEntries?.first)
        load.resourceEntries = Array(repeating: entry, count: 100)
        session.loads = Array(repeating: load, count: 200)
        let kept = session.loads.reduce(0) { $0 + ($1.resourceEntries?.count ?? 0) }
        #expect(kept == Session.maxRecordedEntries)
        #expect(session.loads.count == Session.maxRecordedEntries / 100)
    }

    @Test func anOverlongActionSequenceIsRefused() async throws {
        defer { server.stop(); driver.service.shutdown() }
        let id = try await open()
        let pause: JSONValue = ["type": "pause", "duration": 2_000_000_000]
        await #expect { try await perform(id, [pause, pause], type: "none") }
            throws: { code($0) == .invalidArgument && "\($0)".contains("last") }
    }

    @Test nonisolated func aBodyTooDeepSaysWhy() {
        let deep = Data((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8)
        let body = Data(#"{"a": "#.utf8) + deep + Data("}".utf8)
        #expect { try WebDriverService.parameters(method: "POST", body: body) }
            throws: { code($0) == .invalidArgument && !"\($0)".contains("could not be completed") }
        #expect { try WebDriverService.parameters(method: "POST", body: Data("{\"a\": tru}".utf8)) }
            throws: { code($0) == .invalidArgument && !"\($0)".contains("could not be completed") }
    }

    @Test nonisolated func aNumberBeyondADoubleSaysWhereItIs() throws {
        let body = Data(#"{"capabilities": {"alwaysMatch": {"timeouts": {"script": [1, -1e400]}}}}"#.utf8)
        #expect { try WebDriverService.parameters(method: "POST", body: body) } throws: {
            ($0 as? WebDriverError)?.message == "the body cannot be read as JSON: the number at "
                + "capabilities.alwaysMatch.timeouts.script[1] is beyond a double's range (about ±1.8e308)"
        }
        let largest = try WebDriverService.parameters(method: "POST", body: Data(#"{"a": 1e308}"#.utf8))
        #expect(largest["a"] == .number(1e308))
    }

    @Test nonisolated func aClientHangingUpCancelsItsCommand() async throws {
        // Answered once the abandoned pause is cancelled (the client gives up after 20 s).
        let pause = #"{"type": "pause", "duration": 600000}"#
        let (answer, deleted) = try await HTTPServiceTests.sessionAfterAClientLeaves(
            "actions", body: #"{"actions": [{"type": "none", "id": "n", "actions": [\#(pause)]}]}"#,
            hangingUpAfter: 200_000
        )
        #expect(answer == 42)
        #expect(deleted == 200)
    }

    @Test nonisolated func emptyLinesBeforeARequestLineAreSkipped() throws {
        let server = try WebDriverHTTPServer(port: 0) { _, path, _ in (200, ["value": .string(path)]) }
        defer { server.stop() }
        let client = try HTTPTestClient(port: server.port)
        client.send("\n\n\r\n\r\nGET /after HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let response = try #require(client.response())
        #expect(response.status == 200)
        #expect(response.json?["value"] == "/after")
    }
}
