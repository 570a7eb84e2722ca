import Foundation
import Headway
import HeadwayTestSupport
import HeadwayWebDriver
import Testing

// A session has at most `Session.maxWindows` windows open: New Window past the bound is
// `unsupported operation` with a message that says what to do, and closing one makes room.
@Suite("WebDriver: the windows of a session are bounded", .serialized)
@EngineActor
struct WindowBoundTests {
    @Test func newWindowPastTheBoundIsRefusedUntilOneCloses() async throws {
        let driver = WebDriverDriver()
        defer { driver.service.shutdown() }
        let id = try await driver.newSession()
        for _ in 1..<Session.maxWindows {
            _ = try await driver.send(.newWindow, id, ["type": "tab"])
        }
        #expect(try await handleCount(driver, id) == Session.maxWindows)
        await #expect { try await driver.send(.newWindow, id, ["type": "tab"]) } throws: {
            guard let error = $0 as? WebDriverError else { return false }
            return error.code == .unsupportedOperation && "\(error)".contains("close one to open another")
        }
        #expect(try await handleCount(driver, id) == Session.maxWindows)
        _ = try await driver.send(.closeWindow, id)
        let first = try #require(try await driver.send(.getWindowHandles, id)[0])
        _ = try await driver.send(.switchToWindow, id, ["handle": first])
        let opened = try await driver.send(.newWindow, id, ["type": "window"])
        #expect(opened["handle"]?.stringValue != nil)
    }

    private func handleCount(_ driver: WebDriverDriver, _ id: String) async throws -> Int {
        guard case .array(let handles) = try await driver.send(.getWindowHandles, id) else { return -1 }
        return handles.count
    }
}
