import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// `document.cookie` on pages the booster serves (through its mirror scheme, where WebKit keeps
/// no cookies): it reads and writes the jar the booster's requests send, as a page would without
/// the booster.
@Suite("Cookies on boosted pages", .serialized)
@EngineActor
struct BoosterCookieTests {
    @Test func scriptsSeeAndSetCookiesAsWithoutTheBooster() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/set.html", HTTPResponse(
            headers: [("Content-Type", "text/html"), ("Set-Cookie", "seen=1; Path=/")],
            body: Data("<!doctype html><title>Set</title><script>document.cookie = 'script=3; path=/';</script>".utf8)
        ))
        server.route("/next.html", .html("<!doctype html><title>Next</title>"))
        server.route("/secret.html", HTTPResponse(
            headers: [("Content-Type", "text/html"), ("Set-Cookie", "secret=2; Path=/; HttpOnly")],
            body: Data("<!doctype html><title>Secret</title>".utf8)
        ))
        var results: [[String]] = []
        for booster in [false, true] {
            var configuration = BoosterSite.configuration()
            if !booster { configuration.booster = nil }
            let browser = try Browser(configuration: configuration)
            defer { browser.close() }
            let page = try browser.newPage()
            try await page.load(server.url.appendingPathComponent("secret.html"))
            try await page.load(server.url.appendingPathComponent("set.html"))
            // HttpOnly stays out of reach; a script cannot set one either.
            let read = try await page.evaluate("document.cookie = 'forged=4; HttpOnly'; document.cookie")
                .stringValue ?? ""
            try await page.load(server.url.appendingPathComponent("next.html"))
            let sent = try #require(server.requests.last { $0.path == "/next.html" }?.cookie)
            results.append([read, sent])
        }
        #expect(results[0] == ["seen=1; script=3", "secret=2; seen=1; script=3"])
        #expect(results[1] == results[0], "the booster changed what the page and the server see")
    }
}
