import Foundation
import Headway
import HeadwayTestSupport
import HeadwayWebDriver
import Testing

/// Windows the session's pages open themselves become windows of the session, and a window that
/// closes itself leaves it.
@Suite("WebDriver popup windows", .serialized)
@EngineActor
struct PopupWindowTests {
    // Waits (at most 10 s) until the session has `count` windows, and returns their handles.
    private func handles(_ driver: WebDriverDriver, _ id: String, count: Int) async throws -> [JSONValue] {
        for _ in 0..<200 {
            guard case .array(let handles) = try await driver.send(.getWindowHandles, id) else { return [] }
            if handles.count == count { return handles }
            try await Task.sleep(for: .milliseconds(50))
        }
        guard case .array(let handles) = try await driver.send(.getWindowHandles, id) else { return [] }
        return handles
    }

    @Test func aPopupIsANewWindowUntilItClosesItself() async throws {
        let server = try HTTPServer()
        defer { server.stop() }
        server.route("/opener.html", .html("<title>Opener</title><a id='l' target='_blank' href='/child.html'>c</a>"))
        server.route("/child.html", .html("<title>Child</title>"))
        let driver = WebDriverDriver()
        defer { driver.service.shutdown() }
        let id = try await driver.newSession()
        let first = try #require(try await driver.send(.getWindowHandle, id).stringValue)
        _ = try await driver.navigate(id, server, "opener.html")
        _ = try await driver.script(id, "window.w = window.open('/child.html'); return 1")
        let two = try await handles(driver, id, count: 2)
        #expect(two.first == .string(first) && two.count == 2)
        let popup = try #require(two.last)
        // Still on the opener until switched.
        #expect(try await driver.send(.getTitle, id) == "Opener")
        _ = try await driver.send(.switchToWindow, id, ["handle": popup])
        var title = JSONValue.string("")
        for _ in 0..<200 where title != "Child" {
            title = try await driver.send(.getTitle, id)
            if title != "Child" { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(title == "Child")
        _ = try await driver.script(id, "setTimeout(() => window.close(), 0); return 1")
        #expect(try await handles(driver, id, count: 1) == [.string(first)])
        await #expect { try await driver.send(.getTitle, id) } throws: { code($0) == .noSuchWindow }
        _ = try await driver.send(.switchToWindow, id, ["handle": .string(first)])
        #expect(try await driver.send(.getTitle, id) == "Opener")
        // A link with target=_blank, clicked by a script some time later (no gesture).
        _ = try await driver.script(id, "setTimeout(() => document.getElementById('l').click(), 1100); return 1")
        let again = try await handles(driver, id, count: 2)
        #expect(again.first == .string(first) && again.last != popup)
    }
}
