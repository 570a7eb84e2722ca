import Foundation
import Headway
import HeadwayTestSupport
import HeadwayWebDriver
import Testing

// A mouse button held down on a <select> opens its popup menu in WebKit; keys typed afterwards,
// on another page, must all arrive (a GTK popup on the offscreen window lost Shift+letters).
@Suite("WebDriver select popups", .serialized)
@EngineActor
struct HeldSelectTests {
    typealias F = InteractionFixtures

    @Test func keysAfterAButtonHeldOnASelectAllArrive() async throws {
        let server = try HTTPServer()
        defer { server.stop() }
        server.route("/select.html", .html("<select id=s><option>a<option>b</select>"))
        server.route("/form.html", .html("<input id=keys>"))
        let driver = WebDriverDriver()
        defer { driver.service.shutdown() }
        let id = try await driver.newSession()
        _ = try await driver.navigate(id, server, "select.html")
        let select = try await F.element(driver, id, "#s")
        _ = try await driver.send(.performActions, id, ["actions": [
            ["type": "key", "id": "keyboard", "actions": [["type": "pause"], ["type": "pause"]]],
            ["type": "pointer", "id": "mouse", "parameters": ["pointerType": "mouse"], "actions": [
                ["type": "pointerMove", "origin": select, "x": 0, "y": 0], ["type": "pointerDown", "button": 0],
            ]],
        ]])
        #expect(try await F.script(driver, id, "return document.activeElement.id") == "s")
        _ = try await driver.send(.releaseActions, id)
        let state = try await F.script(
            driver, id, "const s = document.getElementById('s'); return [s.value, document.activeElement.id]")
        // The popup closed without a choice.
        #expect(state == ["a", "s"])
        _ = try await driver.navigate(id, server, "form.html")
        let keys = F.elementID(try await F.element(driver, id, "#keys"))
        _ = try await driver.send(.elementSendKeys, id, ["text": "\u{E008}ab\u{E008}c Hello World"],
                                  parameters: ["elementId": keys])
        #expect(try await F.script(driver, id, "return document.getElementById('keys').value") == "ABc Hello World")
    }
}
