import Foundation
import Headway
import HeadwayTestSupport
import HeadwayWebDriver
import Testing

@Suite("WebDriver windows", .serialized)
@EngineActor
struct WindowCommandTests {
    @Test func aNewWindowIsItsOwnPageAndClosingTheLastEndsTheSession() async throws {
        let server = try HTTPServer()
        defer { server.stop() }
        server.route("/b.html", .html("<title>B</title>"))
        let driver = WebDriverDriver()
        defer { driver.service.shutdown() }
        let id = try await driver.newSession()
        let first = try #require(try await driver.send(.getWindowHandle, id).stringValue)
        #expect(try await driver.send(.getWindowHandles, id) == [.string(first)])
        let created = try await driver.send(.newWindow, id, ["type": "window"])
        let second = try #require(created["handle"]?.stringValue)
        #expect(created["type"] == "window" && second != first)
        #expect(try await driver.send(.getWindowHandles, id) == [.string(first), .string(second)])
        // Still on the first until switched.
        #expect(try await driver.send(.getWindowHandle, id) == .string(first))
        _ = try await driver.send(.switchToWindow, id, ["handle": .string(second)])
        _ = try await driver.navigate(id, server, "b.html")
        #expect(try await driver.send(.getTitle, id) == "B")
        _ = try await driver.send(.switchToWindow, id, ["handle": .string(first)])
        #expect(try await driver.send(.getCurrentURL, id) == "about:blank")
        await #expect { try await driver.send(.switchToWindow, id, ["handle": "nope"]) }
            throws: { code($0) == .noSuchWindow }
        #expect(try await driver.send(.closeWindow, id) == [.string(second)])
        await #expect { try await driver.send(.getWindowHandle, id) } throws: { code($0) == .noSuchWindow }
        _ = try await driver.send(.switchToWindow, id, ["handle": .string(second)])
        #expect(try await driver.send(.getTitle, id) == "B")
        #expect(try await driver.send(.closeWindow, id) == [])
        await #expect { try await driver.send(.getWindowHandles, id) } throws: { code($0) == .invalidSessionID }
    }

    @Test func theWindowRectIsTheViewportAtTheKeptPosition() async throws {
        let driver = WebDriverDriver()
        defer { driver.service.shutdown() }
        let id = try await driver.newSession()
        let rect = try await driver.send(.getWindowRect, id)
        #expect(rect["x"] == 0 && rect["y"] == 0 && rect["width"] == 1280)
        let set = try await driver.send(.setWindowRect, id, ["width": 800, "height": 600, "x": 10, "y": .null])
        #expect(set == ["x": 10, "y": 0, "width": 800, "height": 600])
        #expect(try await driver.script(id, "return [innerWidth, innerHeight]") == [800, 600])
        // Only the height: the width and the position stay.
        let taller = try await driver.send(.setWindowRect, id, ["height": 700])
        #expect(taller == ["x": 10, "y": 0, "width": 800, "height": 700])
        // Numbers that are not whole are taken toward zero, as the spec's "as close as possible".
        let moved = try await driver.send(.setWindowRect, id, ["x": -8.5, "y": 250.5, "width": 550.5])
        #expect(moved == ["x": -8, "y": 250, "width": 550, "height": 700])
        #expect(try await driver.send(.getWindowRect, id) == moved)
        for bad: [String: JSONValue] in [["width": -1], ["height": true], ["width": "800"], ["x": 2_147_483_648],
                                         ["y": [:]], ["x": []]] {
            await #expect { try await driver.send(.setWindowRect, id, bad) }
                throws: { code($0) == .invalidArgument }
        }
        #expect(try await driver.send(.getWindowRect, id) == moved)
    }

    @Test func eachWindowHasItsOwnPosition() async throws {
        let driver = WebDriverDriver()
        defer { driver.service.shutdown() }
        let id = try await driver.newSession()
        let first = try #require(try await driver.send(.getWindowHandle, id).stringValue)
        _ = try await driver.send(.setWindowRect, id, ["x": 100, "y": 120])
        let second = try #require(try await driver.send(.newWindow, id)["handle"]?.stringValue)
        _ = try await driver.send(.switchToWindow, id, ["handle": .string(second)])
        #expect(try await driver.send(.getWindowRect, id)["x"] == 0)
        _ = try await driver.send(.switchToWindow, id, ["handle": .string(first)])
        #expect(try await driver.send(.getWindowRect, id)["y"] == 120)
    }
}
