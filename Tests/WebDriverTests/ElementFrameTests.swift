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

    // A reference names its browsing context: used in another frame or window it is `no such
    // element`, as the spec says; an earlier document's in the same context stays stale.
    @Test
    func aReferenceFromAnotherFrameOrWindowIsNoSuchElement() async throws {
        let server = try HTTPServer()
        defer { server.stop() }
        server.route("/top.html", .html("<p id=p>top</p><iframe id=f src=inner.html></iframe>"))
        server.route("/inner.html", .html("<p id=p>inner</p>"))
        let driver = WebDriverDriver()
        defer { driver.service.shutdown() }
        let id = try await driver.newSession()
        let url = server.url.appendingPathComponent("top.html").absoluteString
        _ = try await driver.send(.navigateTo, id, ["url": .string(url)])
        func element(_ selector: String) async throws -> String {
            let found = try await driver.send(.findElement, id, ["using": "css selector", "value": .string(selector)])
            return try #require(found[ElementPage.elementKey]?.stringValue)
        }
        func text(_ element: String) async throws -> JSONValue {
            try await driver.send(.getElementText, id, parameters: ["elementId": element])
        }
        let top = try await element("#p")
        _ = try await driver.send(.switchToFrame, id, ["id": 0])
        let inner = try await element("#p")
        #expect(try await text(inner) == "inner")
        await expectError(.noSuchElement) { try await text(top) }
        _ = try await driver.send(.switchToParentFrame, id)
        await expectError(.noSuchElement) { try await text(inner) }
        #expect(try await text(top) == "top")
        let window = try await driver.send(.newWindow, id, ["type": "tab"])
        _ = try await driver.send(.switchToWindow, id, ["handle": window["handle"] ?? .null])
        _ = try await driver.send(.navigateTo, id, ["url": .string(url)])
        await expectError(.noSuchElement) { try await text(top) }
        _ = try await driver.send(.navigateTo, id, ["url": .string(url)])
        let again = try await element("#p")
        _ = try await driver.send(.navigateTo, id, ["url": .string(url + "?next")])
        await expectError(.staleElementReference) { try await text(again) }
    }
}
