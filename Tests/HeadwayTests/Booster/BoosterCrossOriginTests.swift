import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// What a page may read from another origin is the same with the booster as without: the
/// booster answers CORS only for what is same-origin on the real web, and a redirect it follows
/// itself to another origin is checked as a browser would check it.
@Suite("Booster: reading across origins", .serialized)
@EngineActor
struct BoosterCrossOriginTests {
    @Test(arguments: [false, true])
    func aPageReadsAnotherOriginOnlyWhenThatOriginAllowsIt(booster: Bool) async throws {
        let site = try Fixtures.server()
        defer { site.stop() }
        // Another port of the same host: another origin, whose host the booster serves.
        let other = try HTTPServer()
        defer { other.stop() }
        let page = site.url.absoluteString.dropLast()
        other.route("/secret", HTTPResponse(headers: [("Content-Type", "text/plain")], body: Data("secret".utf8)))
        other.route(
            "/shared",
            HTTPResponse(
                headers: [("Content-Type", "text/plain"), ("Access-Control-Allow-Origin", String(page))],
                body: Data("shared".utf8)
            )
        )
        site.route("/to-secret", .redirect(to: other.url.absoluteString + "secret"))
        site.route("/to-shared", .redirect(to: other.url.absoluteString + "shared"))
        let svg = "<svg xmlns='http://www.w3.org/2000/svg' width='4' height='4'><rect width='4' height='4'/></svg>"
        other.route("/dot.svg", HTTPResponse(headers: [("Content-Type", "image/svg+xml")], body: Data(svg.utf8)))
        site.route("/to-dot", .redirect(to: other.url.absoluteString + "dot.svg"))
        other.route(
            "/lib.js",
            HTTPResponse(headers: [("Content-Type", "text/javascript")], body: Data("window.lib = 'loaded'".utf8))
        )
        site.route("/to-lib", .redirect(to: other.url.absoluteString + "lib.js"))
        // An image or a script that redirects to another origin (a CDN) loads, as on the real web.
        site.route(
            "/reader.html",
            .html("<!doctype html><title>Reader</title><img src='/to-dot'><script src='/to-lib'></script>")
        )
        try await Browser.withPage(configuration: booster ? BoosterSite.configuration() : Browser.Configuration()) {
            tab in
            try await tab.load(site.url.appendingPathComponent("reader.html"))
            let result = try await tab.run(Snippet(file: "read.js", source: """
                const read = async (url, mode) => { try { return await (await fetch(url, { mode })).text() } \
                catch (e) { return 'refused' } };
                [await read('\(other.url.absoluteString)secret'), await read('/to-secret'), \
                await read('/to-secret', 'no-cors'),
                 await read('/to-shared'), await read('\(other.url.absoluteString)shared'), \
                document.images[0].naturalWidth, window.lib]
                """))
            // A no-cors answer is opaque: its text is empty.
            #expect(
                result.value
                    == .array([
                        .string("refused"), .string("refused"), .string(booster ? "refused" : ""),
                        .string("shared"), .string("shared"), .number(4), .string("loaded"),
                    ]),
                "\(String(describing: result.error))"
            )
        }
    }

    /// A frame redirected to another origin does not become the page's own, even when that
    /// origin answers CORS for everyone; a read that carried cookies needs that origin to allow
    /// the page by name, with credentials.
    @Test(arguments: [false, true])
    func framesAndCredentialedReadsStayTheOtherOrigins(booster: Bool) async throws {
        let site = try Fixtures.server()
        defer { site.stop() }
        let other = try HTTPServer()
        defer { other.stop() }
        let everyone = [("Access-Control-Allow-Origin", "*")]
        other.route(
            "/evil.html",
            HTTPResponse(
                headers: [("Content-Type", "text/html")] + everyone,
                body: Data("<!doctype html><title>Evil</title><p>evil".utf8)
            )
        )
        other.route(
            "/login",
            HTTPResponse(
                headers: [("Content-Type", "text/plain"), ("Set-Cookie", "session=1; Path=/")] + everyone,
                body: Data("in".utf8)
            )
        )
        other.route(
            "/private",
            HTTPResponse(headers: [("Content-Type", "text/plain")] + everyone, body: Data("private".utf8))
        )
        site.route("/to-evil", .redirect(to: other.url.absoluteString + "evil.html"))
        site.route("/to-login", .redirect(to: other.url.absoluteString + "login"))
        site.route("/to-private", .redirect(to: other.url.absoluteString + "private"))
        site.route("/framing.html", .html("<!doctype html><title>Framing</title><iframe src='/to-evil'></iframe>"))
        try await Browser.withPage(configuration: booster ? BoosterSite.configuration() : Browser.Configuration()) {
            tab in
            try await tab.load(site.url.appendingPathComponent("framing.html"))
            let result = try await tab.run(Snippet(file: "frame.js", source: """
                let framed;
                try { framed = document.querySelector('iframe').contentDocument?.body?.textContent ?? 'no access' } \
                catch (e) { framed = 'no access' }
                const read = async (url) => { try { return await (await fetch(url)).text() } \
                catch (e) { return 'refused' } };
                // Without cookies, "*" lets anyone read. Once the other origin set one, WebKit drops
                // it across origins and reads the anonymous answer; the booster, whose request
                // carried the jar's cookie, refuses.
                [framed.includes('evil') ? 'evil read' : 'kept apart', await read('/to-login'), \
                await read('/to-private')]
                """))
            #expect(
                result.value
                    == .array([.string("kept apart"), .string("in"), .string(booster ? "refused" : "private")]),
                "\(String(describing: result.error))"
            )
        }
    }

    /// A PUT that its own origin redirects (307) to another origin never reaches it; a POST
    /// answered 303 within its origin goes on as a GET.
    @Test(arguments: [false, true])
    func aWriteIsNotCarriedToAnotherOrigin(booster: Bool) async throws {
        let site = try Fixtures.server()
        defer { site.stop() }
        let other = try HTTPServer()
        defer { other.stop() }
        other.route(
            "/sink",
            HTTPResponse(
                headers: [("Content-Type", "text/plain"), ("Access-Control-Allow-Origin", "*")],
                body: Data("sunk".utf8)
            )
        )
        site.route("/put-away", .redirect(to: other.url.absoluteString + "sink", status: 307))
        site.route("/post", .redirect(to: "/result", status: 303))
        site.route("/result", HTTPResponse(headers: [("Content-Type", "text/plain")], body: Data("done".utf8)))
        site.route("/writer.html", .html("<!doctype html><title>Writer</title>"))
        try await Browser.withPage(configuration: booster ? BoosterSite.configuration() : Browser.Configuration()) {
            tab in
            try await tab.load(site.url.appendingPathComponent("writer.html"))
            let result = try await tab.run(Snippet(file: "write.js", source: """
                const send = async (url, method) => { \
                try { return await (await fetch(url, { method, body: 'x' })).text() } catch (e) { return 'refused' } };
                [await send('/put-away', 'PUT'), await send('/post', 'POST')]
                """))
            #expect(
                result.value == .array([.string("refused"), .string("done")]),
                "\(String(describing: result.error))"
            )
        }
        #expect(!other.requests.contains { $0.method == "PUT" }, "\(other.requests.map { "\($0.method) \($0.path)" })")
        #expect(
            site.requests.filter { $0.path == "/result" }.map(\.method) == ["GET"],
            "\(site.requests.map { "\($0.method) \($0.path)" })"
        )
    }
}
