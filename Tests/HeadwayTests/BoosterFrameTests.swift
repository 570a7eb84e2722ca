import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// Under the booster, a frame or a form that names its own host with an absolute URL stays
/// what it is: the frame loads in the frame, the form is posted.
@Suite("Booster: absolute URLs to the page's own host", .serialized)
@EngineActor
struct BoosterFrameTests {
    static func server() throws -> HTTPServer {
        let server = try Fixtures.server()
        let own = server.url.absoluteString
        server.route("/framed.html", .html("<!doctype html><title>Framed</title><iframe src='\(own)second.html'></iframe>"))
        server.route("/framed-later.html", .html("""
            <!doctype html><title>Framed later</title><iframe src='about:blank'></iframe>
            <script>onload = () => { document.querySelector('iframe').src = '\(own)second.html' }</script>
            """))
        server.route("/form.html", .html("""
            <!doctype html><title>Form</title>
            <form method=post action='\(own)submit'><input name=q value=hello></form>
            """))
        server.route("/submit", .redirect(to: "/second.html", status: 303))
        return server
    }

    @Test(arguments: [false, true], ["framed.html", "framed-later.html"])
    func anAbsoluteFrameLoadsInItsFrame(booster: Bool, path: String) async throws {
        let server = try Self.server()
        defer { server.stop() }
        try await Browser.withPage(configuration: booster ? BoosterSite.configuration() : Browser.Configuration()) { page in
            let url = server.url.appendingPathComponent(path)
            let result = try await page.load(url)
            #expect(result.finalURL == url)
            #expect(result.redirects.isEmpty)
            let seen = try await page.run(Snippet(file: "frame.js", source: """
                await new Promise(done => setTimeout(done, 200));
                [document.title, document.querySelector('iframe').contentDocument?.title ?? 'no access']
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
        try await Browser.withPage(configuration: booster ? BoosterSite.configuration() : Browser.Configuration()) { page in
            try await page.load(server.url.appendingPathComponent("form.html"))
            let result = try await page.run(Snippet(file: "post.js", source: "document.forms[0].submit()"))
            #expect(result.navigatedTo == server.url.appendingPathComponent("second.html"), "\(String(describing: result.error))")
            #expect(page.title == "Second")
        }
        let posted = server.requests.filter { $0.path == "/submit" }
        #expect(posted.map(\.method) == ["POST"], "\(server.requests.map { "\($0.method) \($0.path)" })")
    }
}
