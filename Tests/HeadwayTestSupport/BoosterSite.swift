import Foundation
import Headway

/// A small site for booster tests: an index linking pages with every kind of reference, plus
/// links the prefetch policy must skip.
public enum BoosterSite {
    public static let prefetchable = ["/a1.html", "/a2.html", "/a3.html", "/nostore.html"]
    public static let a1Subresources = [
        "/a1.css", "/img1.svg", "/a1.js", "/s1.svg", "/s2.svg", "/inline.svg", "/imp.css", "/bg.svg",
    ]
    public static let skipped = ["/logout", "/q.html", "/file.zip", "/nf.html", "/optout.html", "/other.html"]

    @EngineActor
    public static func server(conditions: NetworkConditions = .none) throws -> HTTPServer {
        let server = try HTTPServer(conditions: conditions)
        let port = server.port
        func html(_ body: String, title: String = "Page") -> HTTPResponse {
            .html(
                "<!doctype html><html><head><meta charset=utf-8><title>\(title)</title></head>"
                    + "<body>\(body)</body></html>"
            )
        }
        func css(_ text: String) -> HTTPResponse {
            HTTPResponse(headers: [("Content-Type", "text/css")], body: Data(text.utf8))
        }
        let svg = HTTPResponse(headers: [("Content-Type", "image/svg+xml")],
                               body: Data((#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">"#
                                   + #"<rect width="10" height="10" fill="red"/></svg>"#).utf8))
        server.route("/index.html", html("""
            <a href="/a1.html">one</a> <a href="a2.html">two</a> <a href="http://127.0.0.1:\(port)/a3.html">three</a>
            <a href="/a1.html#again">one again</a> <a href="/nostore.html">no store</a>
            <a href="/logout">logout</a> <a href="/q.html?x=1">query</a> <a href="/file.zip" download>zip</a>
            <a rel="nofollow" href="/nf.html">nofollow</a> \
            <div data-no-prefetch><a href="/optout.html">opt out</a></div>
            <a href="http://localhost:\(port)/other.html">other host</a> <a href="javascript:void(0)">js</a>
            <a href="mailto:someone@example.com">mail</a>
            """, title: "Index"))
        server.route("/a1.html", html("""
            <link rel="stylesheet" href="/a1.css"><script src="/a1.js"></script><img src="/img1.svg">
            <img srcset="/s1.svg 1x, /s2.svg 2x"><div style="background: url('/inline.svg')">x</div>
            """, title: "A1"))
        server.route("/a2.html", html("<base href=\"/sub/\"><img src=\"rel.svg\">", title: "A2"))
        server.route("/a3.html", html("<p>three</p>", title: "A3"))
        server.route(
            "/nostore.html",
            HTTPResponse(
                headers: [("Content-Type", "text/html"), ("Cache-Control", "no-store")],
                body: Data("<!doctype html><title>NoStore</title>".utf8)
            )
        )
        server.route("/a1.css", css("@import \"/imp.css\"; body { background: url(bg.svg) }"))
        server.route("/imp.css", css("p { color: blue }"))
        server.route(
            "/a1.js",
            HTTPResponse(headers: [("Content-Type", "text/javascript")], body: Data("window.a1 = 1;".utf8))
        )
        for path in ["/img1.svg", "/s1.svg", "/s2.svg", "/inline.svg", "/bg.svg", "/sub/rel.svg"] {
            server.route(path, svg)
        }
        for path in skipped { server.route(path, html("skipped")) }
        server.route(
            "/account.html",
            HTTPResponse(
                headers: [("Content-Type", "text/html"), ("Set-Cookie", "session=abc123; Path=/")],
                body: Data("<!doctype html><title>Account</title><a href=\"/a3.html\">a3</a>".utf8)
            )
        )
        server.route("/submit", HTTPResponse(headers: [("Content-Type", "text/plain")], body: Data("ok".utf8)))
        return server
    }

    /// A booster configuration for tests.
    public static func configuration(
        _ change: (inout BoosterConfiguration) -> Void = { _ in }
    ) -> Browser.Configuration {
        var booster = BoosterConfiguration()
        change(&booster)
        var configuration = Browser.Configuration()
        configuration.booster = booster
        return configuration
    }
}
