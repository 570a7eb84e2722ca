import Foundation
import Headway
import HeadwayTestSupport
import HeadwayWebDriver
import Testing

// What a long WebDriver session keeps, counted by loads (memory is counted, not timed): over 500
// gets, each with a script and an element found (whose atom once kept every document through
// querySelectorAll: SelectAllScript), the tree's PSS floor in the last 100 stays within 15% of
// its floor at 50-150.
@Suite("Soak: a WebDriver session", .serialized)
@EngineActor
struct SessionSoakTests {
    @Test func fiveHundredGetsThatFindElementsKeepNoDocument() async throws {
        let total = 500
        let server = try HTTPServer()
        defer { server.stop() }
        server.route("/soak.html", .html(soakPage))
        let driver = WebDriverDriver()
        defer { driver.service.shutdown() }
        let id = try await driver.newSession()
        var soak = SoakSamples(total: total)
        for load in 1...total {
            _ = try await driver.send(.navigateTo, id, ["url": .string("\(server.url)soak.html?i=\(load)")])
            let title = try await driver.send(.executeScript, id, ["script": "return document.title", "args": []])
            try #require(title == "Soak")
            let heading = try await driver.send(.findElement, id, ["using": "css selector", "value": "h1"])
            try #require(heading["element-6066-11e4-a52e-4f735466cecf"]?.stringValue != nil)
            await soak.loadDone(load, pid: getpid())
        }
        _ = try await driver.send(.deleteSession, id)
        print(soak)
        #expect(soak.growth.ratio <= 0.15, "\(soak)")
    }
}
