import Foundation
import Headway
import HeadwayTestSupport
import HeadwayWebDriver
import Testing

// Maximize, Minimize and Fullscreen Window: the state each leaves the window in, what restores
// it, and the page's visibility.
@Suite("WebDriver window states", .serialized)
@EngineActor
struct WindowStateCommandTests {
    static let watch = """
        window.seen = [];
        document.addEventListener('visibilitychange', () => seen.push(document.visibilityState));
        """
    static let read = "return [document.visibilityState, seen]"

    @Test func maximizeAndFullscreenFillTheScreenAndSetWindowRectRestores() async throws {
        let driver = WebDriverDriver()
        defer { driver.service.shutdown() }
        let id = try await driver.newSession()
        let normal: JSONValue = ["x": 30, "y": 40, "width": 800, "height": 600]
        #expect(try await driver.send(.setWindowRect, id, ["x": 30, "y": 40, "width": 800, "height": 600]) == normal)
        let screen: JSONValue = ["x": 0, "y": 0, "width": 1920, "height": 1080]
        #expect(try await driver.send(.maximizeWindow, id) == screen)
        #expect(try await driver.script(id, "return innerWidth") == 1920)
        // Restored first, then moved: the size it had comes back.
        #expect(try await driver.send(.setWindowRect, id, ["x": 50]) == ["x": 50, "y": 40, "width": 800, "height": 600])
        #expect(try await driver.send(.fullscreenWindow, id) == screen)
        #expect(try await driver.send(.maximizeWindow, id) == screen)
        #expect(try await driver.send(.setWindowRect, id, [:]) == ["x": 50, "y": 40, "width": 800, "height": 600])
        #expect(try await driver.script(id, "return [innerWidth, innerHeight]") == [800, 600])
    }

    @Test func minimizeHidesThePageAndEachRestoringCommandShowsIt() async throws {
        let server = try HTTPServer()
        defer { server.stop() }
        server.route("/a.html", .html("<title>A</title>"))
        let driver = WebDriverDriver()
        defer { driver.service.shutdown() }
        let id = try await driver.newSession()
        _ = try await driver.navigate(id, server, "a.html")
        _ = try await driver.script(id, Self.watch)
        let rect = try await driver.send(.setWindowRect, id, ["x": 5, "y": 6, "width": 700, "height": 500])
        let restoring: [(Command, JSONValue)] = [(.setWindowRect, rect), (.maximizeWindow, ["x": 0, "y": 0,
            "width": 1920, "height": 1080]), (.fullscreenWindow, ["x": 0, "y": 0, "width": 1920, "height": 1080])]
        var expected: [JSONValue] = []
        var before = rect
        for (command, after) in restoring {
            // The rect is kept while minimized.
            #expect(try await driver.send(.minimizeWindow, id) == before)
            before = after
            expected.append("hidden")
            #expect(try await driver.script(id, Self.read) == ["hidden", .array(expected)])
            #expect(try await driver.send(command, id) == after)
            expected.append("visible")
            #expect(try await driver.script(id, Self.read) == ["visible", .array(expected)])
        }
    }

    @Test func minimizingAFullscreenWindowExitsFullscreenFirst() async throws {
        let driver = WebDriverDriver()
        defer { driver.service.shutdown() }
        let id = try await driver.newSession()
        let normal = try await driver.send(.setWindowRect, id, ["x": 7, "y": 8, "width": 640, "height": 480])
        _ = try await driver.send(.fullscreenWindow, id)
        #expect(try await driver.send(.minimizeWindow, id) == normal)
        #expect(try await driver.script(id, "return document.visibilityState") == "hidden")
        // Get Window Rect shows a minimized window where it was.
        #expect(try await driver.send(.getWindowRect, id) == normal)
        let narrower = try await driver.send(.setWindowRect, id, ["width": 600])
        #expect(narrower == ["x": 7, "y": 8, "width": 600, "height": 480])
        #expect(try await driver.script(id, "return document.visibilityState") == "visible")
    }
}
