import Foundation
import Headway
import HeadwayTestSupport
import HeadwayWebDriver
import Testing

// `headway webdriver --no-compositing`: every session draws in one software pass unless its
// "headway:options" say "compositing": true, and the warm browsers are made that way too.
@Suite("WebDriver compositing off, warm pool included", .serialized)
@EngineActor
struct CompositingPoolTests {
    static let composited = ["script": JSONValue.string("return matchMedia('(-webkit-transform-3d)').matches"),
                             "args": []]

    @Test func aServerWithCompositingOffWarmsItsBrowsersThatWay() async throws {
        var options = WebDriverService.Options()
        options.warmBrowsers = 1
        options.acceleratedCompositing = false
        let driver = WebDriverDriver(options: options)
        defer { driver.service.shutdown() }
        let pool = driver.service.registry.pool
        await pool.waitUntilFull()
        #expect(pool.ready == 1)
        let plain = try await driver.newSession()
        #expect(pool.ready == 0, "a session with no headway:options takes the warm browser")
        #expect(try await driver.send(.executeScript, plain, Self.composited) == false)

        await pool.waitUntilFull()
        let same = try await driver.newSession(["alwaysMatch": ["headway:options": ["compositing": false]]])
        #expect(pool.ready == 0, "asking for what the pool's browsers are takes one too")
        #expect(try await driver.send(.executeScript, same, Self.composited) == false)

        await pool.waitUntilFull()
        let on = try await driver.newSession(["alwaysMatch": ["headway:options": ["compositing": true]]])
        #expect(pool.ready == 1, "a session that wants compositing back starts a browser of its own")
        #expect(try await driver.send(.executeScript, on, Self.composited) == true)
    }

    @Test func aDefaultServerKeepsCompositingAndSessionsMayTurnItOff() async throws {
        var options = WebDriverService.Options()
        options.warmBrowsers = 1
        let driver = WebDriverDriver(options: options)
        defer { driver.service.shutdown() }
        let pool = driver.service.registry.pool
        await pool.waitUntilFull()
        let off = try await driver.newSession(["alwaysMatch": ["headway:options": ["compositing": false]]])
        #expect(pool.ready == 1, "compositing off is not what the default pool's browsers are")
        #expect(try await driver.send(.executeScript, off, Self.composited) == false)
        let plain = try await driver.newSession()
        #expect(pool.ready == 0)
        #expect(try await driver.send(.executeScript, plain, Self.composited) == true)
    }
}
