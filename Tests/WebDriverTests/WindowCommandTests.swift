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

    @Test func theWindowRectIsTheViewportAndSettingItResizesThePage() async throws {
        let driver = WebDriverDriver()
        defer { driver.service.shutdown() }
        let id = try await driver.newSession()
        let rect = try await driver.send(.getWindowRect, id)
        #expect(rect["x"] == 0 && rect["y"] == 0 && rect["width"] == 1280)
        let set = try await driver.send(.setWindowRect, id, ["width": 800, "height": 600, "x": 10, "y": .null])
        #expect(set == ["x": 0, "y": 0, "width": 800, "height": 600])
        let inner = try await driver.script(id, "return [innerWidth, innerHeight]")
        #expect(inner == [800, 600])
        // Only the height: the width stays.
        let taller = try await driver.send(.setWindowRect, id, ["height": 700])
        #expect(taller["width"] == 800 && taller["height"] == 700)
        for bad: [String: JSONValue] in [["width": -1], ["height": 1.5], ["width": "800"], ["x": 2_147_483_648]] {
            await #expect { try await driver.send(.setWindowRect, id, bad) }
                throws: { code($0) == .invalidArgument }
        }
        #expect(try await driver.send(.maximizeWindow, id) == ["x": 0, "y": 0, "width": 1920, "height": 1080])
        #expect(try await driver.send(.minimizeWindow, id) == ["x": 0, "y": 0, "width": 1920, "height": 1080])
        #expect(try await driver.send(.fullscreenWindow, id)["width"] == 1920)
        #expect(try await driver.send(.executeScript, id, ["script": "return innerWidth", "args": []]) == 1920)
    }
}
