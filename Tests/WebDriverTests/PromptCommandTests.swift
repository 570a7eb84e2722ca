import Foundation
import Headway
import HeadwayTestSupport
import HeadwayWebDriver
import Testing

@Suite("WebDriver user prompts", .serialized)
@EngineActor
struct PromptCommandTests {
    func script(_ driver: WebDriverDriver, _ id: String, _ source: String) async throws -> JSONValue {
        try await driver.send(.executeScript, id, ["script": .string(source), "args": []])
    }


    @Test func aScriptThatOpensAPromptReturnsNullAndThePromptIsAnswered() async throws {
        let driver = WebDriverDriver()
        defer { driver.service.shutdown() }
        let id = try await driver.newSession(["alwaysMatch": ["timeouts": ["script": 20_000]]])
        // Without the race this would wait out the script timeout and fail with "script timeout".
        #expect(try await script(driver, id, "alert('hi'); return 1") == .null)
        #expect(try await driver.send(.getAlertText, id) == "hi")
        await #expect { try await driver.send(.sendAlertText, id, ["text": "x"]) }
            throws: { code($0) == .elementNotInteractable }
        _ = try await driver.send(.acceptAlert, id)
        await #expect { try await driver.send(.getAlertText, id) } throws: { code($0) == .noSuchAlert }
        await #expect { try await driver.send(.dismissAlert, id) } throws: { code($0) == .noSuchAlert }

        #expect(try await script(driver, id, "window.r = confirm('sure?')") == .null)
        _ = try await driver.send(.dismissAlert, id)
        #expect(try await script(driver, id, "return window.r") == false)
        _ = try await script(driver, id, "window.r = confirm('sure?')")
        _ = try await driver.send(.acceptAlert, id)
        #expect(try await script(driver, id, "return window.r") == true)

        _ = try await script(driver, id, "window.r = prompt('name?', 'x')")
        _ = try await driver.send(.sendAlertText, id, ["text": "bob"])
        _ = try await driver.send(.acceptAlert, id)
        #expect(try await script(driver, id, "return window.r") == "bob")
        _ = try await script(driver, id, "window.r = prompt('name?', 'x')")
        _ = try await driver.send(.acceptAlert, id)
        #expect(try await script(driver, id, "return window.r") == "x")
        _ = try await script(driver, id, "window.r = prompt('name?', 'x')")
        _ = try await driver.send(.dismissAlert, id)
        #expect(try await script(driver, id, "return window.r") == .null)
    }

    @Test func aPageThatOpensAPromptWhileLoadingEndsTheNavigation() async throws {
        let server = try HTTPServer()
        defer { server.stop() }
        server.route("/a.html", .html("<title>A</title><body onload=\"alert('loaded')\">"))
        let driver = WebDriverDriver()
        defer { driver.service.shutdown() }
        let id = try await driver.newSession(["alwaysMatch": ["timeouts": ["pageLoad": 20_000]]])
        // Without the race this would wait out the page load timeout and fail with "timeout".
        _ = try await driver.navigate(id, server, "a.html")
        #expect(try await driver.send(.getAlertText, id) == "loaded")
        _ = try await driver.send(.acceptAlert, id)
        #expect(try await driver.script(id, "return document.title") == "A")
    }

    @Test func dismissAndNotifyClosesThePromptAndFailsTheCommandWithItsText() async throws {
        let driver = WebDriverDriver()
        defer { driver.service.shutdown() }
        let id = try await driver.newSession()
        _ = try await script(driver, id, "window.r = confirm('leave?')")
        await #expect { try await driver.send(.getTitle, id) } throws: { error in
            code(error) == .unexpectedAlertOpen && (error as? WebDriverError)?.data == ["text": "leave?"]
        }
        await #expect { try await driver.send(.getAlertText, id) } throws: { code($0) == .noSuchAlert }
        #expect(try await script(driver, id, "return window.r") == false)
    }

    @Test func acceptGoesOnWithTheCommandAndIgnoreLeavesThePromptOpen() async throws {
        let driver = WebDriverDriver(options: { var o = WebDriverService.Options(); o.maxSessions = 2; return o }())
        defer { driver.service.shutdown() }
        let accepting = try await driver.newSession(["alwaysMatch": ["unhandledPromptBehavior": "accept"]])
        _ = try await script(driver, accepting, "window.r = confirm('go?')")
        #expect(try await script(driver, accepting, "return window.r") == true)

        let ignoring = try await driver.newSession(["alwaysMatch": ["unhandledPromptBehavior": "ignore"]])
        _ = try await script(driver, ignoring, "alert('still here')")
        await #expect { try await driver.send(.getTitle, ignoring) } throws: { code($0) == .unexpectedAlertOpen }
        // Commands that do not handle prompts still run.
        #expect(try await driver.send(.getWindowHandles, ignoring).items?.count == 1)
        #expect(try await driver.send(.getAlertText, ignoring) == "still here")
        _ = try await driver.send(.dismissAlert, ignoring)
        #expect(try await driver.send(.getTitle, ignoring) == "")
    }
}

extension JSONValue {
    fileprivate var items: [JSONValue]? { if case .array(let items) = self { items } else { nil } }
}
