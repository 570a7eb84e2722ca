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

    @Test func aScriptCannotOverwriteAnHttpOnlyCookieWithOrWithoutTheBooster() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/secret.html", HTTPResponse(
            headers: [("Content-Type", "text/html"), ("Set-Cookie", "sid=server; Path=/; HttpOnly")],
            body: Data("<!doctype html><title>Secret</title>".utf8)
        ))
        server.route("/next.html", .html("<!doctype html><title>Next</title>"))
        var sent: [String?] = []
        for booster in [false, true] {
            var configuration = BoosterSite.configuration()
            if !booster { configuration.booster = nil }
            let browser = try Browser(configuration: configuration)
            defer { browser.close() }
            let page = try browser.newPage()
            try await page.load(server.url.appendingPathComponent("secret.html"))
            try await page.evaluate(
                "document.cookie = 'sid=script; path=/'; document.cookie = 'sid=; Max-Age=0; path=/'"
            )
            try await page.load(server.url.appendingPathComponent("next.html"))
            sent.append(server.requests.last { $0.path == "/next.html" }?.cookie)
        }
        #expect(sent == ["sid=server", "sid=server"])
    }

    @Test func onlyThePagesOwnShimReachesTheCookieJar() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/page.html", .html("<!doctype html><title>Page</title>"))
        let browser = try Browser(configuration: BoosterSite.configuration())
        defer { browser.close() }
        let page = try browser.newPage()
        try await page.load(server.url.appendingPathComponent("page.html"))
        let port = try #require(server.url.port)
        // Without the shim's header, and from another origin (no preflight passes).
        let statuses = try await page.callAsyncFunction("""
            const own = '/.well-known/headway-cookie?u=' + encodeURIComponent(location.href);
            const plain = await fetch(own, {method: 'POST', body: 'forged=1; path=/'});
            const other = 'headway-http://localhost:\(port)/.well-known/headway-cookie?u='
              + encodeURIComponent('http://localhost:\(port)/');
            let crossOrigin = 'sent';
            try {
              await fetch(other, {method: 'POST', headers: {'X-Headway-Cookie': '1'}, body: 'evil=1; path=/'});
            } catch (_) { crossOrigin = 'refused'; }
            try { await fetch(other, {method: 'POST', mode: 'no-cors', body: 'evil=2; path=/'}); } catch (_) {}
            return [plain.status, crossOrigin, document.cookie];
            """)
        #expect(statuses == [403, "refused", ""])
        #expect(try await browser.allCookies().isEmpty)
        // The resource records leave the shim's requests out.
        try await page.evaluate("document.cookie = 'kept=1; path=/'; document.cookie")
        #expect(try await page.evaluate("document.cookie") == "kept=1")
        #expect(!server.requests.contains { $0.path.contains("headway-cookie") })
    }
}
