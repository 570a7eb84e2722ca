import Foundation
import Headway
import HeadwayWebDriver
import Testing

@Suite("WebDriver elements in a frame", .serialized)
@EngineActor
struct ElementFrameTests {
    // Passes with Switch To Frame from branch wdwindows (checked with its FrameCommands.swift).
    @Test
    func findingAndStateWorkInsideAFrame() async throws {
        let server = try HTTPServer()
        defer { server.stop() }
        server.route("/top.html", .html("<p id=p>top</p><iframe id=f src=inner.html></iframe>"))
        server.route("/inner.html", .html("<p id=p style='margin:0'>inner text</p><a href=/x>Inner link</a>"))
        let driver = WebDriverDriver()
        defer { driver.service.shutdown() }
        let id = try await driver.newSession()
        let url = server.url.appendingPathComponent("top.html").absoluteString
        _ = try await driver.send(.navigateTo, id, ["url": .string(url)])
        _ = try await driver.send(.switchToFrame, id, ["id": 0])
        let p = try await driver.send(.findElement, id, ["using": "css selector", "value": "#p"])
        let pid = try #require(p[ElementPage.elementKey]?.stringValue)
        #expect(try await driver.send(.getElementText, id, parameters: ["elementId": pid]) == "inner text")
        let rect = try await driver.send(.getElementRect, id, parameters: ["elementId": pid])
        #expect(rect["y"] == 8, "relative to the frame's document (body margin 8)")
        #expect(try await driver.send(.isElementDisplayed, id, parameters: ["elementId": pid]) == true)
        let link = try await driver.send(.findElement, id, ["using": "link text", "value": "Inner link"])
        #expect(link[ElementPage.elementKey]?.stringValue != nil)
        let x = try await driver.send(.findElement, id, ["using": "xpath", "value": "//p"])
        #expect(x == p)
    }
}
