import Foundation
import Headway
import HeadwayTestSupport
import HeadwayWebDriver
import Testing

@Suite("WebDriver frames", .serialized)
@EngineActor
struct FrameCommandTests {
    func script(_ driver: WebDriverDriver, _ id: String, _ source: String) async throws -> JSONValue {
        try await driver.send(.executeScript, id, ["script": .string(source), "args": []])
    }

    @Test func framesAreEnteredByIndexAndElementAndLeftToTheParentAndTop() async throws {
        let server = try HTTPServer()
        defer { server.stop() }
        server.route("/outer.html", .html("<title>outer</title><p id=p>o</p><iframe src=/inner.html></iframe>"))
        server.route("/inner.html", .html("<title>inner</title><iframe src=/leaf.html></iframe>"))
        server.route("/leaf.html", .html("<title>leaf</title>"))
        let driver = WebDriverDriver()
        defer { driver.service.shutdown() }
        let id = try await driver.newSession()
        _ = try await driver.navigate(id, server, "outer.html")
        _ = try await driver.send(.switchToFrame, id, ["id": 0])
        #expect(try await script(driver, id, "return document.title") == "inner")
        let leaf = try await script(driver, id, "return document.querySelector('iframe')")
        _ = try await driver.send(.switchToFrame, id, ["id": leaf])
        #expect(try await script(driver, id, "return document.title") == "leaf")
        _ = try await driver.send(.switchToParentFrame, id)
        #expect(try await script(driver, id, "return document.title") == "inner")
        _ = try await driver.send(.switchToFrame, id, ["id": .null])
        #expect(try await script(driver, id, "return document.title") == "outer")
        // At the top, the parent is the top.
        _ = try await driver.send(.switchToParentFrame, id)
        #expect(try await script(driver, id, "return document.title") == "outer")
    }

    @Test func wrongFramesAreNoSuchFrameAndWrongIdsInvalid() async throws {
        let server = try HTTPServer()
        defer { server.stop() }
        let other = try HTTPServer()
        defer { other.stop() }
        other.route("/x.html", .html("<title>x</title>"))
        let crossOrigin = other.url.appendingPathComponent("x.html").absoluteString
        server.route("/outer.html", .html("<p id=p>o</p><iframe src='\(crossOrigin)'></iframe>"))
        let driver = WebDriverDriver()
        defer { driver.service.shutdown() }
        let id = try await driver.newSession()
        _ = try await driver.navigate(id, server, "outer.html")
        await #expect { try await driver.send(.switchToFrame, id, ["id": 3]) }
            throws: { code($0) == .noSuchFrame }
        let paragraph = try await script(driver, id, "return document.getElementById('p')")
        await #expect { try await driver.send(.switchToFrame, id, ["id": paragraph]) }
            throws: { code($0) == .noSuchFrame }
        await #expect { try await driver.send(.switchToFrame, id, ["id": 0]) }
            throws: { code($0) == .noSuchFrame && "\($0)".contains("another origin") }
        for bad: JSONValue in ["0", -1, 1.5, ["a": 1]] {
            await #expect { try await driver.send(.switchToFrame, id, ["id": bad]) }
                throws: { code($0) == .invalidArgument }
        }
        await #expect { try await driver.send(.switchToFrame, id, [:]) }
            throws: { code($0) == .invalidArgument }
        // Still at the top.
        #expect(try await script(driver, id, "return document.getElementById('p').textContent") == "o")
    }
}
