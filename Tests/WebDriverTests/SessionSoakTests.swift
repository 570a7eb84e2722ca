import Foundation
import Headway
import HeadwayTestSupport
import HeadwayWebDriver
import Testing

// What a long WebDriver session keeps, counted by loads (memory is counted, not timed): the
// process tree's PSS after 500 gets, each with a script, stays within 15% of its reading at 100.
// With an element reference made in each document (Find Element), the documents are still kept
// (about 1.4 MB a load on the bench's pages; docs/performance.md): a known issue, until fixed.
@Suite("Soak: a WebDriver session", .serialized)
@EngineActor
struct SessionSoakTests {
    @Test func fiveHundredGetsInOneSessionKeepNoDocument() async throws {
        let soak = try await run(loads: 500, findingElements: false)
        #expect(soak.growth.ratio <= 0.15, "\(soak)")
    }

    @Test func getsThatFindElementsStillKeepTheirDocuments() async throws {
        let soak = try await run(loads: 500, findingElements: true)
        withKnownIssue("an element reference keeps its document in the web process") {
            #expect(soak.growth.ratio <= 0.15, "\(soak)")
        }
    }

    private func run(loads total: Int, findingElements: Bool) async throws -> SoakSamples {
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
            if findingElements {
                let heading = try await driver.send(.findElement, id, ["using": "css selector", "value": "h1"])
                try #require(heading["element-6066-11e4-a52e-4f735466cecf"]?.stringValue != nil)
            }
            await soak.loadDone(load, pid: getpid())
        }
        _ = try await driver.send(.deleteSession, id)
        print(soak)
        return soak
    }
}
