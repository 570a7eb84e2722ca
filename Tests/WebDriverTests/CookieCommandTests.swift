import Foundation
import Headway
import HeadwayTestSupport
import HeadwayWebDriver
import Testing

@Suite("WebDriver cookies", .serialized)
@EngineActor
struct CookieCommandTests {
    @Test func anAddedCookieIsReadBackSentAndDeleted() async throws {
        let server = try HTTPServer()
        defer { server.stop() }
        server.route("/a.html", .html("<title>A</title>"))
        let driver = WebDriverDriver()
        defer { driver.service.shutdown() }
        let id = try await driver.newSession()
        let url = server.url.appendingPathComponent("a.html").absoluteString
        _ = try await driver.send(.navigateTo, id, ["url": .string(url)])
        _ = try await driver.send(.addCookie, id, ["cookie": ["name": "a", "value": "1"]])
        _ = try await driver.send(.addCookie, id, ["cookie": [
            "name": "h", "value": "2", "httpOnly": true, "expiry": 4_102_444_800, "sameSite": "Strict", "path": "/",
        ]])
        let a = try await driver.send(.getNamedCookie, id, parameters: ["name": "a"])
        #expect(a["value"] == "1" && a["path"] == "/" && a["domain"] == "127.0.0.1" && a["secure"] == false)
        #expect(a["httpOnly"] == false && a["expiry"] == nil)
        let h = try await driver.send(.getNamedCookie, id, parameters: ["name": "h"])
        #expect(h["httpOnly"] == true && h["expiry"] == 4_102_444_800 && h["sameSite"] == "Strict")
        let all = try await driver.send(.getAllCookies, id)
        #expect(Set(all.items?.compactMap { $0["name"]?.stringValue } ?? []) == ["a", "h"])
        // The page sees the script-visible one; the server gets both.
        #expect(try await driver.send(.executeScript, id, ["script": "return document.cookie", "args": []]) == "a=1")
        _ = try await driver.send(.refresh, id)
        let sent = try await loggedCookies(server, "/a.html", count: 2).last.flatMap { $0 } ?? ""
        #expect(sent.contains("a=1") && sent.contains("h=2"))
        _ = try await driver.send(.deleteCookie, id, parameters: ["name": "a"])
        await #expect { try await driver.send(.getNamedCookie, id, parameters: ["name": "a"]) }
            throws: { code($0) == .noSuchCookie }
        _ = try await driver.send(.deleteAllCookies, id)
        #expect(try await driver.send(.getAllCookies, id) == [])
    }

    @Test func addCookieChecksItsFieldsAndTheDocumentsDomain() async throws {
        let server = try HTTPServer()
        defer { server.stop() }
        server.route("/a.html", .html("<title>A</title>"))
        let driver = WebDriverDriver()
        defer { driver.service.shutdown() }
        let id = try await driver.newSession()
        // about:blank cannot have cookies.
        await #expect { try await driver.send(.addCookie, id, ["cookie": ["name": "a", "value": "1"]]) }
            throws: { code($0) == .invalidCookieDomain }
        #expect(try await driver.send(.getAllCookies, id) == [])
        _ = try await driver.navigate(id, server, "a.html")
        let elsewhere: JSONValue = ["name": "a", "value": "1", "domain": "example.com"]
        await #expect { try await driver.send(.addCookie, id, ["cookie": elsewhere]) }
            throws: { code($0) == .invalidCookieDomain }
        let invalid: [JSONValue] = [
            ["value": "1"], ["name": "a"], ["name": 1, "value": "1"], ["name": "a", "value": "1", "secure": "yes"],
            ["name": "a", "value": "1", "expiry": -1], ["name": "a", "value": "1", "expiry": 1.5],
            ["name": "a", "value": "1", "sameSite": "lax"], ["name": "a", "value": "1", "path": 3],
        ]
        for cookie in invalid {
            await #expect { try await driver.send(.addCookie, id, ["cookie": cookie]) }
                throws: { code($0) == .invalidArgument }
        }
        await #expect { try await driver.send(.addCookie, id, [:]) } throws: { code($0) == .invalidArgument }
        // The document's own host, given as a domain, is fine.
        _ = try await driver.send(.addCookie, id, ["cookie": ["name": "d", "value": "4", "domain": "127.0.0.1"]])
        #expect(try await driver.send(.getNamedCookie, id, parameters: ["name": "d"])["value"] == "4")
    }
}

extension JSONValue {
    fileprivate var items: [JSONValue]? { if case .array(let items) = self { items } else { nil } }
}
