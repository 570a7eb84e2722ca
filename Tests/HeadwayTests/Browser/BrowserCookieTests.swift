import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// A browser's cookies can be read, added and deleted while it runs (WebDriver's cookie commands).
@Suite("Browser cookies", .serialized)
@EngineActor
struct BrowserCookieTests {
    // The Cookie headers of the requests for `path` once the server logged `count` of them (it logs
    // a request when its last byte is sent, which can be after the page loaded), waiting at most 5 s.
    func cookies(_ server: HTTPServer, _ path: String, count: Int) async throws -> [String?] {
        for _ in 0..<500 where server.requests.filter({ $0.path == path }).count < count {
            try await Task.sleep(for: .milliseconds(10))
        }
        return server.requests.filter { $0.path == path }.map(\.cookie)
    }

    @Test func cookiesAreReadAddedAndDeleted() async throws {
        let server = try HTTPServer()
        defer { server.stop() }
        server.route("/set.html", HTTPResponse(headers: [
            ("Content-Type", "text/html"), ("Set-Cookie", "s=1; Path=/; HttpOnly; SameSite=Strict"),
        ]))
        server.route("/a.html", .html("<title>A</title>"))
        let url = server.url.appendingPathComponent("a.html")
        try await Browser.withBrowser { browser in
            let page = try browser.newPage()
            _ = try await page.load(server.url.appendingPathComponent("set.html"))
            let set = try #require(try await browser.cookies(for: url).first { $0.name == "s" })
            #expect(set.value == "1" && set.domain == "127.0.0.1" && set.path == "/" && set.httpOnly)
            #expect(set.sameSite == .strict && set.expires == nil && !set.secure)
            let expires = Date(timeIntervalSince1970: 4_102_444_800)
            try await browser.addCookie(Cookie(name: "a", value: "2", domain: "127.0.0.1", expires: expires,
                                               sameSite: .lax))
            let added = try #require(try await browser.cookies(for: url).first { $0.name == "a" })
            #expect(added.expires == expires && added.sameSite == .lax && !added.httpOnly)
            _ = try await page.load(url)
            #expect(try await page.evaluate("document.cookie") == "a=2")
            let sent = try await cookies(server, "/a.html", count: 1).last.flatMap { $0 } ?? ""
            #expect(sent.contains("a=2") && sent.contains("s=1"))
            try await browser.deleteCookie(set)
            #expect(try await browser.cookies(for: url).map(\.name) == ["a"])
            await #expect { try await browser.cookies(for: URL(string: "about:blank")!) } throws: {
                ($0 as? HeadwayError)?.code == .invalidArgument
            }
        }
    }

    @Test func theBoostersJarIsReadAddedToAndDeletedFrom() async throws {
        let server = try HTTPServer()
        defer { server.stop() }
        server.route("/a.html", HTTPResponse(headers: [("Content-Type", "text/html"), ("Set-Cookie", "s=1; Path=/")]))
        server.route("/b.html", .html("<title>B</title>"))
        var configuration = Browser.Configuration()
        configuration.booster = BoosterConfiguration()
        try await Browser.withBrowser(configuration: configuration) { browser in
            try await browser.addCookie(Cookie(name: "b", value: "3", domain: "127.0.0.1"))
            let page = try browser.newPage()
            _ = try await page.load(server.url.appendingPathComponent("a.html"))
            #expect(try await cookies(server, "/a.html", count: 1) == ["b=3"])
            // The booster's jar holds what its pages' responses set.
            let url = server.url.appendingPathComponent("b.html")
            #expect(Set(try await browser.cookies(for: url).map(\.name)) == ["b", "s"])
            try await browser.deleteCookie(Cookie(name: "b", value: "", domain: "127.0.0.1"))
            _ = try await page.load(server.url.appendingPathComponent("b.html"))
            #expect(try await cookies(server, "/b.html", count: 1) == ["s=1"])
        }
    }
}
