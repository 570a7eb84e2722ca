import Foundation
import Headway
import HeadwayTestSupport
import HeadwayWebDriver
import Testing

@Suite("WebDriver headway extensions", .serialized)
@EngineActor
struct HeadwayCommandTests {
    static func driver() -> WebDriverDriver {
        var options = WebDriverService.Options()
        options.warmBrowsers = 0
        return WebDriverDriver(options: options)
    }

    @Test func timingIsTheLastLoadAsHeadwayLoadEncodesIt() async throws {
        let server = try HTTPServer()
        defer { server.stop() }
        server.route("/t.html", .html("<title>Timed</title><p>hi"))
        let driver = Self.driver()
        defer { driver.service.shutdown() }
        let id = try await driver.newSession()
        #expect(try await driver.send(.headwayTiming, id) == .null)
        let url = server.url.appendingPathComponent("t.html")
        _ = try await driver.send(.navigateTo, id, ["url": .string(url.absoluteString)])
        let timing = try await driver.send(.headwayTiming, id)
        // The library's own Codable reads it back: the same figures `headway load` prints.
        let load = try JSONDecoder().decode(LoadResult.self, from: JSONEncoder().encode(timing))
        #expect(load.finalURL == url && load.status == 200 && load.title == "Timed")
        #expect(load.timing.loadEventEnd > 0 && load.timing.responseStart >= 0)
        #expect(timing["timing"]?["domContentLoadedEventEnd"]?.doubleValue == load.timing.domContentLoadedEventEnd)
        let answer = await driver.service.handle(method: "GET", path: "/session/\(id)/headway/timing", body: Data())
        #expect(answer.status == 200 && answer.body["value"]?["title"] == "Timed")
    }

    @Test func boosterStatsAreNullWithoutTheBoosterAndCountsWithIt() async throws {
        let server = try HTTPServer()
        defer { server.stop() }
        server.route("/b.html", .html("<title>B</title><a href='/c.html'>c</a>"))
        server.route("/c.html", .html("<title>C</title>"))
        let driver = Self.driver()
        defer { driver.service.shutdown() }
        let plain = try await driver.newSession()
        #expect(try await driver.send(.headwayBoosterStats, plain) == .null)
        let boosted = try await driver.newSession(["alwaysMatch": ["headway:options": ["booster": ["prefetch": true]]]])
        let page = server.url.appendingPathComponent("b.html").absoluteString
        _ = try await driver.send(.navigateTo, boosted, ["url": .string(page)])
        let session = try driver.service.registry.session(boosted)
        await session.browser.settlePrefetch(timeout: .seconds(10))
        let stats = try await driver.send(.headwayBoosterStats, boosted)
        let decoded = try JSONDecoder().decode(PrefetchRunStats.self, from: JSONEncoder().encode(stats))
        #expect(decoded == session.browser.prefetchStats)
        #expect(decoded.linksFound >= 1)
    }

    @Test func harNeedsTheOptionAndThenLogsEveryLoadWithLateRequests() async throws {
        let server = try HTTPServer()
        defer { server.stop() }
        server.route("/h.html", .html("<title>H</title><img src='/i.png'>"))
        server.route("/i.png", HTTPResponse(headers: [("Content-Type", "image/png")], body: Data([0x89, 0x50])))
        server.route("/late.txt", HTTPResponse(headers: [("Content-Type", "text/plain")], body: Data("late".utf8)))
        server.route("/second.html", .html("<title>Second</title>"))
        let driver = Self.driver()
        defer { driver.service.shutdown() }
        let plain = try await driver.newSession()
        await #expect { try await driver.send(.headwayHAR, plain) } throws: {
            ($0 as? WebDriverError)?.code == .unsupportedOperation
                && ($0 as? WebDriverError)?.message.contains("\"har\": true") == true
        }
        await #expect { try await driver.newSession(["alwaysMatch": ["headway:options": ["har": "yes"]]]) }
            throws: { ($0 as? WebDriverError)?.code == .invalidArgument }
        let id = try await driver.newSession(["alwaysMatch": ["headway:options": ["har": true]]])
        for path in ["second.html", "h.html"] {
            let url = server.url.appendingPathComponent(path).absoluteString
            _ = try await driver.send(.navigateTo, id, ["url": .string(url)])
        }
        _ = try await driver.send(.executeAsyncScript, id, [
            "script": "const done = arguments[0]; fetch('/late.txt').then(r => r.text()).then(done)", "args": [],
        ])
        let har = try await driver.send(.headwayHAR, id)
        #expect(har["log"]?["version"] == "1.2")
        guard case .array(let pages)? = har["log"]?["pages"], case .array(let entries)? = har["log"]?["entries"] else {
            Issue.record("no pages or entries: \(har)")
            return
        }
        #expect(pages.map { $0["title"] } == ["Second", "H"])
        let urls = entries.compactMap { $0["request"]?["url"]?.stringValue }.map { URL(string: $0)?.path ?? "" }
        #expect(urls.contains("/second.html") && urls.contains("/h.html") && urls.contains("/i.png"))
        #expect(urls.contains("/late.txt"), "a request the page made after its load: \(urls)")
        let png = entries.first { $0["request"]?["url"]?.stringValue?.hasSuffix("/i.png") == true }
        #expect(png?["pageref"] == "page_2" && png?["response"]?["status"] == 200)
    }
}
