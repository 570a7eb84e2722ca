import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// Each page option checked by what the page saw and what nginx, a server Headway did not write,
/// received.
@Suite("Page options", .serialized)
struct PageOptionsTests {
    @Test func viewportUserAgentHeadersCookiesAndLocaleReachPageAndServer() async throws {
        let root = try OptionsSite.make()
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try NginxServer(root: root)
        defer { nginx.stop() }
        var configuration = Browser.Configuration()
        configuration.viewportWidth = 800
        configuration.viewportHeight = 600
        configuration.userAgent = "HeadwayTest/1.0"
        configuration.extraHeaders = [("X-Headway-Test", "on every request")]
        configuration.cookies = [Cookie(name: "session", value: "abc123", domain: "127.0.0.1")]
        configuration.locale = "fr-FR"
        let seen = try await Browser.withPage(configuration: configuration) { page in
            try await page.load(nginx.url.appendingPathComponent("index.html"))
            return try await page.evaluate(
                "[innerWidth, innerHeight, navigator.userAgent, navigator.language, document.cookie]"
            )
        }
        #expect(seen == [800, 600, "HeadwayTest/1.0", "fr-FR", "session=abc123"])
        let requests = nginx.waitForRequests(count: 3).filter { ["/index.html", "/style.css"].contains($0.path) }
        #expect(requests.count == 2)
        for request in requests {
            #expect(request.userAgent == "HeadwayTest/1.0")
            #expect(request.testHeader == "on every request")
            #expect(request.cookie == "session=abc123")
            #expect(request.acceptLanguage?.hasPrefix("fr-FR") == true)
        }
    }

    @Test func theBoostersRequestsCarryTheSameIdentity() async throws {
        let root = try OptionsSite.make()
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try NginxServer(root: root)
        defer { nginx.stop() }
        var configuration = Browser.Configuration()
        configuration.userAgent = "HeadwayTest/1.0"
        configuration.extraHeaders = [("X-Headway-Test", "boosted")]
        configuration.cookies = [Cookie(name: "session", value: "b00st", domain: "127.0.0.1")]
        configuration.blockedURLPatterns = ["*/analytics.js"]
        configuration.booster = BoosterConfiguration()
        let next = try await Browser.withBrowser(configuration: configuration) { browser in
            let page = try browser.newPage()
            let first = try await page.load(nginx.url.appendingPathComponent("index.html"))
            #expect(first.resources.blocked == 1)
            await browser.settlePrefetch(timeout: .seconds(10))
            return try await page.load(nginx.url.appendingPathComponent("next.html"))
        }
        #expect(next.prefetch?.fromCache == 1)
        let requests = nginx.waitForRequests(count: 3)
        #expect(!requests.map(\.path).contains("/analytics.js"))
        let prefetch = try #require(requests.first { $0.path == "/next.html" })
        #expect(prefetch.secPurpose == "prefetch")
        for request in requests where ["/index.html", "/style.css", "/next.html"].contains(request.path) {
            #expect(request.userAgent == "HeadwayTest/1.0", "\(request.path)")
            #expect(request.testHeader == "boosted", "\(request.path)")
            #expect(request.cookie == "session=b00st", "\(request.path)")
        }
    }

    @Test func initScriptsRunBeforeThePagesOwn() async throws {
        let root = try OptionsSite.make()
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try NginxServer(root: root)
        defer { nginx.stop() }
        var configuration = Browser.Configuration()
        configuration.initScripts = ["window.initRan = true;"]
        try await Browser.withPage(configuration: configuration) { page in
            try await page.load(nginx.url.appendingPathComponent("index.html"))
            #expect(try await page.evaluate("window.seen.initRanFirst") == true)
            try page.addInitScript("window.second = location.pathname;")
            try await page.reload()
            #expect(try await page.evaluate("window.second") == "/index.html")
        }
    }

    @Test func blockedRequestsNeverReachTheServerAndAreCounted() async throws {
        let root = try OptionsSite.make()
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try NginxServer(root: root)
        defer { nginx.stop() }
        var configuration = Browser.Configuration()
        configuration.blockedURLPatterns = ["*/analytics.js"]
        let (result, ran) = try await Browser.withPage(configuration: configuration) { page in
            let result = try await page.load(nginx.url.appendingPathComponent("index.html"))
            return (result, try await page.evaluate("window.seen.analytics"))
        }
        #expect(result.resources.blocked == 1)
        #expect(ran == false)
        let paths = nginx.waitForRequests(count: 2).map(\.path)
        #expect(paths.contains("/style.css"))
        #expect(!paths.contains("/analytics.js"))

        configuration.blockedURLPatterns = ["*/index.html"]
        do {
            _ = try await Browser.withPage(configuration: configuration) { page in
                try await page.load(nginx.url.appendingPathComponent("index.html"))
            }
            Issue.record("a blocked main document should fail the load")
        } catch let error as HeadwayError {
            #expect(error.code == .blockedURL)
        }
    }

    @Test func aRequestFilterSeesEveryRequestAndMayBlockIt() async throws {
        let root = try OptionsSite.make()
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try NginxServer(root: root)
        defer { nginx.stop() }
        let seen = Seen()
        var configuration = Browser.Configuration()
        configuration.requestFilter = { request in
            seen.add(request)
            return request.url.path.hasSuffix("/analytics.js") ? .block : .allow
        }
        let result = try await Browser.withPage(configuration: configuration) { page in
            try await page.load(nginx.url.appendingPathComponent("index.html"))
        }
        #expect(result.resources.blocked == 1)
        let requests = seen.all
        #expect(requests.contains { $0.url.path == "/index.html" && $0.method == "GET" })
        #expect(requests.contains { $0.url.path == "/style.css" && $0.page?.path == "/index.html" })
        #expect(requests.contains { $0.url.path == "/analytics.js" })
        #expect(!nginx.waitForRequests(count: 2).map(\.path).contains("/analytics.js"))
    }

    /// The requests a filter saw, from its own thread.
    final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var requests: [FilteredRequest] = []
        func add(_ request: FilteredRequest) { lock.withLock { requests.append(request) } }
        var all: [FilteredRequest] { lock.withLock { requests } }
    }

    @Test func waitsForALateElementAndForTheNetworkToGoIdle() async throws {
        let root = try OptionsSite.make()
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try NginxServer(root: root)
        defer { nginx.stop() }
        try await Browser.withPage { page in
            try await page.load(nginx.url.appendingPathComponent("index.html"))
            #expect(try await page.evaluate("document.querySelector('#late') === null") == true)
            try await page.waitFor(selector: "#late")
            #expect(try await page.evaluate("document.querySelector('#late') !== null") == true)
            do {
                try await page.waitFor(selector: "#never", timeout: .milliseconds(300))
                Issue.record("waiting for #never should time out")
            } catch let error as HeadwayError {
                #expect(error.code == .timeout)
            }
            do {
                try await page.waitFor(selector: "p[", timeout: .seconds(2))
                Issue.record("a bad selector should be refused")
            } catch let error as HeadwayError {
                #expect(error.code == .invalidArgument)
            }
            try await page.load(nginx.url.appendingPathComponent("index.html"))
            try await page.waitForNetworkIdle()
            #expect(try await page.evaluate("window.fetched") == true)
        }
    }

    @EngineActor
    @Test func aLoadCanEndAtDOMContentLoadedWhileAnImageHangs() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/hanging.html", .html("<!doctype html><title>hanging</title><p>text<img src=\"/hang\">"))
        let url = server.url.appendingPathComponent("hanging.html")
        try await Browser.withPage { page in
            let early = try await page.load(url, until: .domContentLoaded, timeout: .seconds(20))
            #expect(early.title == "hanging")
            #expect(early.timing.domContentLoadedEventEnd > 0)
            #expect(early.timing.loadEventEnd == 0)
            do {
                _ = try await page.load(url, timeout: .seconds(1))
                Issue.record("the load event never comes, so a plain load should time out")
            } catch let error as HeadwayError {
                #expect(error.code == .timeout)
            }
        }
    }

    @Test func basicAuthIsAnsweredOnlyWithCredentials() async throws {
        let root = try OptionsSite.make()
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try NginxServer(root: root, options: .init(extra: OptionsSite.nginxExtra(root: root)))
        defer { nginx.stop() }
        let secret = nginx.url.appendingPathComponent("secret/index.html")
        let without = try await Browser.withPage { page in try await page.load(secret).status }
        #expect(without == 401)
        var configuration = Browser.Configuration()
        configuration.credentials = Browser.Credentials(user: "ada", password: "lovelace")
        let with = try await Browser.withPage(configuration: configuration) { page in try await page.load(secret) }
        #expect(with.status == 200)
        #expect(with.title == "secret")
        configuration.credentials = Browser.Credentials(user: "ada", password: "wrong")
        let wrong = try await Browser.withPage(configuration: configuration) { page in
            try await page.load(secret).status
        }
        #expect(wrong == 401)
    }

    @Test func aSelfSignedServerLoadsOnlyWhenTLSErrorsAreIgnored() async throws {
        let root = try OptionsSite.make()
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try NginxServer(root: root, options: .init(tls: try OptionsSite.selfSigned(in: root)))
        defer { nginx.stop() }
        #expect(nginx.url.scheme == "https")
        let url = nginx.url.appendingPathComponent("index.html")
        do {
            _ = try await Browser.withPage { page in try await page.load(url) }
            Issue.record("a self-signed certificate should fail the load")
        } catch let error as HeadwayError {
            #expect(error.code == .loadFailed)
        }
        var configuration = Browser.Configuration()
        configuration.ignoreTLSErrors = true
        let result = try await Browser.withPage(configuration: configuration) { page in try await page.load(url) }
        #expect(result.status == 200)
        #expect(result.title == "options")
    }

    @Test func everyRequestGoesThroughTheProxy() async throws {
        let root = try OptionsSite.make()
        defer { try? FileManager.default.removeItem(at: root) }
        let origin = try NginxServer(root: root)
        defer { origin.stop() }
        // A second nginx as the proxy: it forwards whatever it is asked for to the origin.
        let proxy = try NginxServer(
            root: root,
            options: .init(extra: "location / { proxy_pass \(origin.url.absoluteString); }")
        )
        defer { proxy.stop() }
        var configuration = Browser.Configuration()
        configuration.proxy = proxy.url
        // Only the proxy can reach a host under .invalid.
        let url = URL(string: "http://site.invalid/index.html")!
        let result = try await Browser.withPage(configuration: configuration) { page in try await page.load(url) }
        #expect(result.status == 200)
        #expect(result.title == "options")
        #expect(proxy.waitForRequests(count: 3).contains { $0.path == "/index.html" })
        #expect(origin.waitForRequests(count: 3).contains { $0.path == "/style.css" })
    }

    @Test func aConfigurationThatCannotWorkIsRefusedWithItsReason() throws {
        var configuration = Browser.Configuration()
        configuration.viewportWidth = 0
        #expect(throws: HeadwayError.self) { try Browser.validate(configuration) }
        configuration = Browser.Configuration()
        configuration.extraHeaders = [("Bad Name", "x")]
        #expect(throws: HeadwayError.self) { try Browser.validate(configuration) }
        configuration = Browser.Configuration()
        configuration.locale = "not a locale"
        #expect(throws: HeadwayError.self) { try Browser.validate(configuration) }
        configuration = Browser.Configuration()
        configuration.deviceScaleFactor = 5
        #expect(throws: HeadwayError.self) { try Browser.validate(configuration) }
    }
}
