import Foundation
import Headway

/// Pages and scripts the tests serve and run.
public enum Fixtures {
    public static let pageTitle = "Fixture Page"

    public static let page = """
        <!doctype html><html><head><meta charset="utf-8"><title>\(pageTitle)</title>
        <link rel="stylesheet" href="/style.css"></head>
        <body><h1>Fixture</h1><p>Some text on a coloured page.</p><a href="/second.html">second</a>
        <img src="/pixel.svg" width="40" height="40">
        <script>console.log("fixture says", 42); console.warn("careful");</script></body></html>
        """

    public static let second = """
        <!doctype html><html><head><title>Second</title></head><body><p>second page</p></body></html>
        """

    public static let throwing = """
        <!doctype html><html><head><title>Throws</title></head><body>
        <script>setTimeout(() => { throw new TypeError("page blew up"); }, 0);
        Promise.reject(new Error("nobody caught me"));</script></body></html>
        """

    /// Opens a confirm, a prompt and an alert while it loads, and keeps their answers in
    /// `window.answers` (and its title).
    public static let dialogs = """
        <!doctype html><html><head><title>Dialogs</title></head><body><script>
        window.answers = { confirm: confirm("Sure?"), prompt: prompt("Name?", "anonymous") };
        alert("Hello from the page");
        document.title = JSON.stringify(window.answers);
        </script></body></html>
        """

    /// Allocates memory (8 MB every 10 ms, at most 1 GB) while an image that never arrives keeps
    /// its load pending: a web process with a memory limit below that is killed mid-load.
    public static let memoryHog = """
        <!doctype html><html><head><title>Hog</title></head><body><img src="/hang"><script>
        const kept = [];
        (function grow() {
          if (kept.length >= 128) return;
          const chunk = new Uint8Array(8 << 20);
          chunk.fill(kept.length + 1);
          kept.push(chunk);
          setTimeout(grow, 10);
        })();
        </script></body></html>
        """

    public static let style = "body { background: #2a7; color: #fff; font: 20px sans-serif; } h1 { color: #fd0; }"
    public static let svg = ##"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40">"##
        + ##"<rect width="40" height="40" fill="#c33"/></svg>"##

    /// A page that allocates in a loop that never yields (about 8 MB a turn, stopping at 3 GB so
    /// that a broken limit cannot take the machine's memory), then spins.
    public static let tightLoopHog = """
        <!doctype html><html><head><title>Loop hog</title></head><body><script>
        const kept = [];
        for (let i = 0; i < 384; i++) kept.push(new Array(1e6).fill(i));
        while (true) {}
        </script></body></html>
        """

    /// A loopback server with the fixture routes: `/page.html`, `/second.html`, `/throws.html`,
    /// `/style.css`, `/pixel.svg`, `/redirect` (302 to /page.html), `/missing` (404),
    /// `/teapot` (418), `/hang` (never answers), `/dialogs.html` (confirm, prompt and alert while loading),
    /// `/private` (401 with a Basic challenge), `/nocontent` (204), `/notmodified` (304 to any request),
    /// `/file.zip` (an attachment), `/blob` (application/octet-stream), `/hog.html` (allocates up to 1 GB
    /// while its load stays pending), `/loop-hog.html` (`tightLoopHog`).
    @EngineActor
    public static func server(conditions: NetworkConditions = .none, root: URL? = nil) throws -> HTTPServer {
        let server = try HTTPServer(root: root, conditions: conditions)
        server.route("/page.html", .html(page))
        server.route("/second.html", .html(second))
        server.route("/throws.html", .html(throwing))
        server.route("/style.css", HTTPResponse(headers: [("Content-Type", "text/css")], body: Data(style.utf8)))
        server.route("/pixel.svg", HTTPResponse(headers: [("Content-Type", "image/svg+xml")], body: Data(svg.utf8)))
        server.route("/redirect", .redirect(to: "/page.html"))
        server.route("/missing", .html("<!doctype html><title>Gone</title><p>not here</p>", status: 404))
        server.route("/teapot", .html("<!doctype html><title>Teapot</title>", status: 418))
        server.route("/hang", .hang)
        server.route("/dialogs.html", .html(dialogs))
        server.route("/hog.html", .html(memoryHog))
        server.route("/loop-hog.html", .html(tightLoopHog))
        server.route("/nocontent", HTTPResponse(status: 204))
        server.route("/notmodified", HTTPResponse(status: 304))
        server.route(
            "/file.zip",
            HTTPResponse(
                headers: [
                    ("Content-Type", "application/zip"),
                    ("Content-Disposition", "attachment; filename=\"file.zip\""),
                ],
                body: Data("PK\u{3}\u{4} not really a zip".utf8)
            )
        )
        server.route(
            "/blob",
            HTTPResponse(headers: [("Content-Type", "application/octet-stream")], body: Data(repeating: 7, count: 64))
        )
        server.route(
            "/private",
            HTTPResponse(
                status: 401,
                headers: [
                    ("WWW-Authenticate", "Basic realm=\"x\""),
                    ("Content-Type", "text/html"),
                ],
                body: Data("<!doctype html><title>Unauthorized</title>".utf8)
            )
        )
        return server
    }

    /// Writes `contents` to a new temporary file and returns its path.
    public static func file(_ name: String, _ contents: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("headway-tests-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try contents.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }
}
