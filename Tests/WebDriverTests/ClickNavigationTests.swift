import Foundation
import Headway
import HeadwayTestSupport
import HeadwayWebDriver
import Testing

// Element Click waits for a navigation the click started, however the page started it, and
// returns at once when it started none.
@Suite("WebDriver click and navigation", .serialized)
@EngineActor
struct ClickNavigationTests {
    typealias F = InteractionFixtures

    let server: HTTPServer
    let driver = WebDriverDriver()

    init() throws {
        server = try HTTPServer()
        server.route("/start.html", .html("""
            <title>Start</title>
            <form action="submitted.html"><button id=submit>submit</button></form>
            <button id=timer onclick="setTimeout(() => { location.href = 'timer.html' }, 0)">timer</button>
            <button id=assign onclick="location.href = 'assigned.html'">assign</button>
            <button id=nothing onclick="document.title = 'Clicked'">nothing</button>
            <iframe name=f src="about:blank"></iframe><a id=framed href="framed.html" target=f>framed</a>
            """))
        for name in ["submitted", "timer", "assigned", "framed"] {
            server.route("/\(name).html", .html("<title>\(name)</title><p>\(name)"))
        }
    }

    func clickOnStart(_ css: String) async throws -> JSONValue {
        let id = try await driver.newSession()
        _ = try await driver.send(.navigateTo, id, ["url": .string(server.url.appendingPathComponent("start.html")
            .absoluteString)])
        let element = try await F.element(driver, id, css)
        _ = try await driver.send(.elementClick, id, parameters: ["elementId": F.elementID(element)])
        let title = try await driver.send(.getTitle, id)
        _ = try await driver.send(.deleteSession, id)
        return title
    }

    @Test func aClickThatSubmitsAFormReturnsOnTheNextPage() async throws {
        defer { server.stop(); driver.service.shutdown() }
        #expect(try await clickOnStart("#submit") == "submitted")
    }

    @Test func aClickWhoseHandlerNavigatesReturnsOnTheNextPage() async throws {
        defer { server.stop(); driver.service.shutdown() }
        #expect(try await clickOnStart("#assign") == "assigned")
        #expect(try await clickOnStart("#timer") == "timer", "a navigation on a zero timer")
    }

    @Test func aClickThatNavigatesNothingOrOnlyAFrameStaysOnThePage() async throws {
        defer { server.stop(); driver.service.shutdown() }
        #expect(try await clickOnStart("#nothing") == "Clicked")
        #expect(try await clickOnStart("#framed") == "Start")
    }
}
