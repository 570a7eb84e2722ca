import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// Under the booster, a frame, a form or a `fetch` that names the page's own host with an
/// absolute URL works as on the real web: the frame loads in the frame, the form is posted, and
/// the fetch is same-origin (no CORS failure, no preflight sent to the server), and a
/// Content-Security-Policy of 'self' allows it.
@Suite("Booster: absolute URLs to the page's own host", .serialized)
@EngineActor
struct BoosterFrameTests {
    static func server() throws -> HTTPServer {
        let server = try Fixtures.server()
        let own = server.url.absoluteString
        server.route(
            "/framed.html",
            .html("<!doctype html><title>Framed</title><iframe src='\(own)second.html'></iframe>")
        )
        server.route(
            "/framed-later.html",
            .html(
                """
                <!doctype html><title>Framed later</title><iframe src='about:blank'></iframe>
                <script>onload = () => { document.querySelector('iframe').src = '\(own)second.html' }</script>
                """
            )
        )
        server.route(
            "/form.html",
            .html(
                """
                <!doctype html><title>Form</title>
                <form method=post action='\(own)submit'><input name=q value=hello></form>
                """
            )
        )
        server.route("/submit", .redirect(to: "/second.html", status: 303))
        server.route("/api", HTTPResponse(headers: [("Content-Type", "text/plain")], body: Data("answer".utf8)))
        server.route("/fetching.html", .html("<!doctype html><title>Fetching</title>"))
        server.route(
            "/module.html",
            .html("<!doctype html><title>Module</title><script type=module src='\(own)m.js'></script>")
        )
        server.route(
            "/m.js",
            HTTPResponse(headers: [("Content-Type", "text/javascript")], body: Data("document.title = 'Ran'".utf8))
        )
        server.route(
            "/long.html",
            .html(
                """
                <!doctype html><title>Long</title><a id=down href='\(own)long.html#end'>down</a>
                <div style='height:5000px'></div><p id=end>end
                """
            )
        )
        server.route("/nothing", HTTPResponse(status: 204))
        server.route(
            "/stays.html",
            .html("<!doctype html><title>Stays</title><a id=nothing href='\(own)nothing'>nothing</a>")
        )
        server.route(
            "/strict.html",
            HTTPResponse(
                headers: [("Content-Type", "text/html"), ("Content-Security-Policy", "default-src 'self'")],
                body: Data("<!doctype html><title>Strict</title><script src='\(own)strict.js'></script>".utf8)
            )
        )
        server.route(
            "/strict.js",
            HTTPResponse(headers: [("Content-Type", "text/javascript")], body: Data("document.title = 'Allowed'".utf8))
        )
        return server
    }

    @Test(arguments: [false, true], ["framed.html", "framed-later.html"])
    func anAbsoluteFrameLoadsInItsFrame(booster: Bool, path: String) async throws {
        let server = try Self.server()
        defer { server.stop() }
        try await Browser.withPage(configuration: booster ? BoosterSite.configuration() : Browser.Configuration()) {
            page in
            let url = server.url.appendingPathComponent(path)
            let result = try await page.load(url)
            #expect(result.finalURL == url)
            #expect(result.redirects.isEmpty)
            let seen = try await page.run(Snippet(file: "frame.js", source: """
                const frame = () => document.querySelector('iframe').contentDocument?.title ?? 'no access';
                for (let i = 0; i < 100 && frame() !== 'Second'; i++) await new Promise(done => setTimeout(done, 50));
                [document.title, frame()]
                """))
            let title = path == "framed.html" ? "Framed" : "Framed later"
            #expect(seen.value == .array([.string(title), .string("Second")]), "\(String(describing: seen.error))")
            #expect(page.url == url)
        }
    }

    @Test(arguments: [false, true])
    func aFormPostedToAnAbsoluteURLIsPosted(booster: Bool) async throws {
        let server = try Self.server()
        defer { server.stop() }
        try await Browser.withPage(configuration: booster ? BoosterSite.configuration() : Browser.Configuration()) {
            page in
            try await page.load(server.url.appendingPathComponent("form.html"))
            let result = try await page.run(Snippet(file: "post.js", source: "document.forms[0].submit()"))
            #expect(
                result.navigatedTo == server.url.appendingPathComponent("second.html"),
                "\(String(describing: result.error))"
            )
            #expect(page.title == "Second")
            // The booster keeps the page it was sent to.
            let scheme = try await page.evaluate("location.protocol", as: String.self)
            #expect(scheme == (booster ? "headway-http:" : "http:"))
        }
        let posted = server.requests.filter { $0.path == "/submit" }
        #expect(posted.map(\.method) == ["POST"], "\(server.requests.map { "\($0.method) \($0.path)" })")
    }

    @Test(arguments: [false, true])
    func aFetchOfAnAbsoluteURLIsSameOrigin(booster: Bool) async throws {
        let server = try Self.server()
        defer { server.stop() }
        try await Browser.withPage(configuration: booster ? BoosterSite.configuration() : Browser.Configuration()) {
            page in
            try await page.load(server.url.appendingPathComponent("fetching.html"))
            let result = try await page.run(Snippet(file: "fetch.js", source: """
                const api = '\(server.url.absoluteString)api';
                const plain = await (await fetch(api)).text();
                const posted = await (await fetch(api, { method: 'POST', \
                headers: { 'Content-Type': 'application/json', 'X-Token': 't' }, body: '{}' })).text();
                [plain, posted]
                """))
            #expect(
                result.value == .array([.string("answer"), .string("answer")]),
                "\(String(describing: result.error))"
            )
        }
        #expect(
            server.requests.filter { $0.path == "/api" }.map(\.method) == ["GET", "POST"],
            "\(server.requests.map { "\($0.method) \($0.path)" })"
        )
    }

    /// Module scripts (and fonts) are fetched in CORS mode too.
    @Test(arguments: [false, true])
    func aModuleScriptOfAnAbsoluteURLRuns(booster: Bool) async throws {
        let server = try Self.server()
        defer { server.stop() }
        try await Browser.withPage(configuration: booster ? BoosterSite.configuration() : Browser.Configuration()) {
            page in
            let result = try await page.load(server.url.appendingPathComponent("module.html"))
            #expect(result.title == "Ran")
        }
    }

    @Test(arguments: [false, true])
    func aPolicyAllowingSelfAllowsTheOwnHostByAbsoluteURL(booster: Bool) async throws {
        let server = try Self.server()
        defer { server.stop() }
        try await Browser.withPage(configuration: booster ? BoosterSite.configuration() : Browser.Configuration()) {
            page in
            let result = try await page.load(server.url.appendingPathComponent("strict.html"))
            #expect(result.title == "Allowed")
        }
    }

    /// To WebKit, an absolute link to a fragment of the page shown is another page under the
    /// mirror scheme; it still scrolls the page, as on the real web.
    @Test(arguments: [false, true])
    func anAbsoluteLinkToAFragmentScrollsThePage(booster: Bool) async throws {
        let server = try Self.server()
        defer { server.stop() }
        try await Browser.withPage(configuration: booster ? BoosterSite.configuration() : Browser.Configuration()) {
            page in
            let url = server.url.appendingPathComponent("long.html")
            try await page.load(url)
            let result = try await page.run(
                Snippet(
                    file: "down.js",
                    source: """
                        window.marker = 'same page';
                        document.getElementById('down').click();
                        await new Promise(done => setTimeout(done, 100));
                        [window.marker ?? 'reloaded', scrollY > 0, location.hash]
                        """
                )
            )
            #expect(
                result.value == .array([.string("same page"), .bool(true), .string("#end")]),
                "\(String(describing: result.error))"
            )
        }
        #expect(server.requests.filter { $0.path == "/long.html" }.count == 1, "\(server.requests.map(\.path))")
    }

    /// A link answered 204 leaves the page where it is; an absolute URL to its host still works.
    @Test(arguments: [false, true])
    func afterALinkThatLeadsNowhereThePageStillReadsItsHost(booster: Bool) async throws {
        let server = try Self.server()
        defer { server.stop() }
        try await Browser.withPage(configuration: booster ? BoosterSite.configuration() : Browser.Configuration()) {
            page in
            let url = server.url.appendingPathComponent("stays.html")
            try await page.load(url)
            _ = try await page.run(Snippet(file: "nothing.js", source: "document.getElementById('nothing').click()"))
            let read = try await page.run(
                Snippet(file: "read.js", source: "await (await fetch('\(server.url.absoluteString)api')).text()")
            )
            #expect(read.value == .string("answer"), "\(String(describing: read.error))")
            #expect(page.url == url)
        }
    }
}
