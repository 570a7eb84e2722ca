import Foundation
import Headway
import HeadwayTestSupport
import HeadwayWebDriver
import Testing

@Suite("WebDriver session pool and lifetime", .serialized)
@EngineActor
struct SessionPoolTests {
    static let site = """
        <title>Jar</title><script>
        window.seen = {cookie: document.cookie, stored: localStorage.getItem('k')};
        </script>
        """

    static func options(warm: Int, max: Int = 4, timeout: Duration? = nil) -> WebDriverService.Options {
        var options = WebDriverService.Options()
        options.warmBrowsers = warm
        options.maxSessions = max
        options.sessionTimeout = timeout
        return options
    }

    @Test func cookiesAndStorageNeverPassBetweenSessionsEvenThroughThePool() async throws {
        let server = try HTTPServer()
        defer { server.stop() }
        server.route("/jar.html", .html(Self.site))
        let url = server.url.appendingPathComponent("jar.html").absoluteString
        let driver = WebDriverDriver(options: Self.options(warm: 1))
        defer { driver.service.shutdown() }
        let pool = driver.service.registry.pool
        await pool.waitUntilFull()
        #expect(pool.ready == 1)
        let first = try await driver.newSession()
        #expect(pool.ready == 0, "the first session took the warm browser")
        _ = try await driver.send(.navigateTo, first, ["url": .string(url)])
        let set = try await driver.send(.executeScript, first, ["script": """
            document.cookie = 'k=v; max-age=3600'; localStorage.setItem('k', 'v');
            return [document.cookie, localStorage.getItem('k')]
            """, "args": []])
        #expect(set == ["k=v", "v"])
        _ = try await driver.send(.refresh, first)
        #expect(try await driver.send(.executeScript, first, ["script": "return window.seen", "args": []])
            == ["cookie": "k=v", "stored": "v"], "the first session keeps its own cookie and storage")
        await pool.waitUntilFull()
        #expect(pool.ready == 1, "the pool refilled")
        let second = try await driver.newSession()
        #expect(pool.ready == 0, "the second session took the refilled warm browser")
        _ = try await driver.send(.navigateTo, second, ["url": .string(url)])
        #expect(try await driver.send(.executeScript, second, ["script": "return window.seen", "args": []])
            == ["cookie": "", "stored": .null])
        // And a session started fresh (not from the pool) sees nothing either.
        let fresh = try await driver.newSession(["alwaysMatch": ["headway:options": ["locale": "en-US"]]])
        _ = try await driver.send(.navigateTo, fresh, ["url": .string(url)])
        #expect(try await driver.send(.executeScript, fresh, ["script": "return window.seen", "args": []])
            == ["cookie": "", "stored": .null])
    }

    @Test func shutdownClosesThePooledBrowsersAndWarmsNoMore() async throws {
        let driver = WebDriverDriver(options: Self.options(warm: 2))
        let pool = driver.service.registry.pool
        await pool.waitUntilFull()
        #expect(pool.ready == 2)
        let id = try await driver.newSession()
        driver.service.shutdown()
        #expect(pool.ready == 0)
        try await Task.sleep(for: .milliseconds(300))
        #expect(pool.ready == 0, "a browser that was warming when the pool closed is closed, not kept")
        await #expect { try await driver.send(.getTitle, id) } throws: {
            ($0 as? WebDriverError)?.code == .invalidSessionID
        }
    }

    @Test func sessionsFasterThanThePoolKeepMoreWarmUntilTheyStop() async throws {
        let driver = WebDriverDriver(options: Self.options(warm: 1, max: 4))
        defer { driver.service.shutdown() }
        let pool = driver.service.registry.pool
        pool.shrinkAfter = .seconds(3600)
        #expect(pool.size == 1 && pool.ceiling == 2)
        await pool.waitUntilFull()
        let first = try await driver.newSession()
        // The next one finds the pool empty (its browser is still starting): one more is kept warm.
        let second = try await driver.newSession()
        #expect(pool.target == 2)
        _ = try await driver.send(.deleteSession, first)
        _ = try await driver.send(.deleteSession, second)
        await pool.waitUntilFull()
        #expect(pool.ready == 2)
        pool.shrinkAfter = .milliseconds(100)
        let deadline = ContinuousClock.now + .seconds(10)
        while pool.ready > 1, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
        #expect(pool.target == 1 && pool.ready == 1, "no session found it empty for shrinkAfter: back to its size")
    }

    @Test func theMaximumRefusesNewSessionsAndStatusSaysSo() async throws {
        let driver = WebDriverDriver(options: Self.options(warm: 0, max: 1))
        defer { driver.service.shutdown() }
        #expect(driver.service.registry.pool.size == 0)
        #expect(await Self.ready(driver) == true)
        let id = try await driver.newSession()
        #expect(await Self.ready(driver) == false)
        await #expect { try await driver.newSession() } throws: { ($0 as? WebDriverError)?.code == .sessionNotCreated }
        _ = try await driver.send(.deleteSession, id)
        #expect(await Self.ready(driver) == true)
        _ = try await driver.newSession()
    }

    @Test func aSessionUnusedForTheTimeoutIsDeletedAndOneInUseIsNot() async throws {
        let driver = WebDriverDriver(options: Self.options(warm: 0, timeout: .milliseconds(400)))
        defer { driver.service.shutdown() }
        let idle = try await driver.newSession()
        let busy = try await driver.newSession()
        // A command longer than the timeout keeps its session.
        let long = try await driver.send(.executeAsyncScript, busy, [
            "script": "const done = arguments[0]; setTimeout(() => done(7), 1500)", "args": [],
        ])
        #expect(long == 7)
        #expect(driver.service.registry.sessions[busy] != nil)
        let deadline = ContinuousClock.now + .seconds(10)
        while driver.service.registry.sessions[idle] != nil, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        await #expect { try await driver.send(.getTitle, idle) } throws: {
            ($0 as? WebDriverError)?.code == .invalidSessionID
        }
    }

    static func ready(_ driver: WebDriverDriver) async -> Bool? {
        await driver.service.handle(method: "GET", path: "/status", body: Data()).body["value"]?["ready"]?.boolValue
    }
}
