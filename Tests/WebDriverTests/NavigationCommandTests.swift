import Foundation
import Headway
import HeadwayTestSupport
import HeadwayWebDriver
import Testing

@Suite("WebDriver navigation and scripts", .serialized)
@EngineActor
struct NavigationCommandTests {
    @Test func aSessionLoadsAPageAndRunsAScriptWithAnElementBothWays() async throws {
        let server = try HTTPServer()
        defer { server.stop() }
        server.route("/a.html", .html("<title>A</title><p id=p>hello</p>"))
        let driver = WebDriverDriver()
        defer { driver.service.shutdown() }
        let id = try await driver.newSession()
        let url = server.url.appendingPathComponent("a.html").absoluteString
        _ = try await driver.send(.navigateTo, id, ["url": .string(url)])
        #expect(try await driver.send(.getTitle, id) == "A")
        #expect(try await driver.send(.getCurrentURL, id) == .string(url))
        let element = try await driver.send(.executeScript, id,
                                            ["script": "return document.getElementById('p')", "args": []])
        let key = "element-6066-11e4-a52e-4f735466cecf"
        #expect(element[key]?.stringValue != nil)
        let text = try await driver.send(.executeScript, id,
                                         ["script": "return arguments[0].textContent", "args": [element]])
        #expect(text == "hello")
        let sum = try await driver.send(.executeAsyncScript, id, [
            "script": "const done = arguments[arguments.length - 1]; setTimeout(() => done(arguments[0] + 1), 10)",
            "args": [41],
        ])
        #expect(sum == 42)
    }

    @Test func aThrownErrorIsAJavascriptErrorAndAnUnknownSessionIsInvalid() async throws {
        let driver = WebDriverDriver()
        defer { driver.service.shutdown() }
        let id = try await driver.newSession()
        let script: [String: JSONValue] = ["script": "throw new TypeError('boom')", "args": []]
        await #expect { try await driver.send(.executeScript, id, script) }
            throws: { ($0 as? WebDriverError)?.code == .javascriptError && "\($0)".contains("boom") }
        await #expect { try await driver.send(.getTitle, "nope") } throws: {
            ($0 as? WebDriverError)?.code == .invalidSessionID
        }
        let answer = await driver.service.handle(method: "GET", path: "/session/\(id)/nowhere", body: Data())
        #expect(answer.status == 404 && answer.body["value"]?["error"] == "unknown command")
    }
}
