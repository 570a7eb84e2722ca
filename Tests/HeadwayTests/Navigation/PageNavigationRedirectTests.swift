import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// A navigation the page starts itself (a link, a script) that the server redirects ends at the
/// target, as WebKit's own does: the page's URL, its relative links and the delegate's calls are
/// the target's, with the booster too (which fetches that document itself).
@Suite("Redirects of the page's own navigations", .serialized)
@EngineActor
struct PageNavigationRedirectTests {
    static func server() throws -> HTTPServer {
        let server = try Fixtures.server()
        server.route("/start.html", .html("""
            <!doctype html><title>Start</title><a id=go href='/dir'>a folder</a>
            <a id=absolute href='\(server.url.absoluteString)dir'>the same, absolute</a>
            """))
        server.route("/dir", .redirect(to: "/dir/"))
        server.route("/dir/", .html("<!doctype html><title>Folder</title><img src='dot.svg'>"))
        let svg = "<svg xmlns='http://www.w3.org/2000/svg' width='4' height='4'><rect width='4' height='4'/></svg>"
        server.route("/dir/dot.svg", HTTPResponse(headers: [("Content-Type", "image/svg+xml")], body: Data(svg.utf8)))
        server.route("/to-file", .redirect(to: "file:///etc/passwd"))
        return server
    }

    static func configuration(_ booster: Bool) -> Browser.Configuration {
        booster ? BoosterSite.configuration() : Browser.Configuration()
    }

    @Test(arguments: [(false, "go"), (true, "go"), (false, "absolute"), (true, "absolute")])
    func aClickedLinkThatRedirectsEndsAtItsTarget(booster: Bool, link: String) async throws {
        let server = try Self.server()
        defer { server.stop() }
        let delegate = RecordingDelegate()
        try await Browser.withPage(configuration: Self.configuration(booster), delegate: delegate) { page in
            try await page.load(server.url.appendingPathComponent("start.html"))
            delegate.reset()
            let result = try await page.run(
                Snippet(file: "click.js", source: "document.getElementById('\(link)').click()")
            )
            #expect(result.error == nil, "\(String(describing: result.error))")
            let target = server.url.appendingPathComponent("dir/")
            #expect(result.navigatedTo == target)
            #expect(result.navigatedStatus == 200)
            #expect(page.url == target)
            #expect(page.title == "Folder")
            let image = try await page.evaluate(
                "[document.images[0].src, document.images[0].naturalWidth]",
                as: [JSONValue].self
            )
            // (Under the booster the page sees its mirror scheme.)
            #expect(
                image.first?.stringValue?.hasSuffix(":" + server.url.absoluteString.dropFirst(5) + "dir/dot.svg")
                    == true,
                "\(image)"
            )
            #expect((image.last?.doubleValue ?? 0) > 0, "\(image)")
            // The booster keeps the page it was sent to, relative link or absolute.
            let scheme = try await page.evaluate("location.protocol", as: String.self)
            #expect(scheme == (booster ? "headway-http:" : "http:"))
            #expect(delegate.calls.filter { $0.hasPrefix("started") } == ["started /dir"], "\(delegate.calls)")
            // (`RecordingDelegate` shows URL paths, which drop a final slash.)
            #expect(delegate.calls.filter { $0.hasPrefix("redirected") } == ["redirected /dir"], "\(delegate.calls)")
            #expect(!delegate.calls.contains { $0.hasPrefix("failed") }, "\(delegate.calls)")
        }
        #expect(!server.requests.contains { $0.path == "/dot.svg" }, "\(server.requests.map(\.path))")
    }

    @Test(arguments: [false, true])
    func aScriptSentToARedirectOutOfHTTPIsRefusedClearly(booster: Bool) async throws {
        let server = try Self.server()
        defer { server.stop() }
        try await Browser.withPage(configuration: Self.configuration(booster)) { page in
            try await page.load(server.url.appendingPathComponent("start.html"))
            let result = try await page.run(Snippet(file: "away.js", source: "location.href = '/to-file'"))
            let message = try #require(result.error?.message)
            #expect(message.contains("\(server.url.absoluteString)to-file redirected to file:///etc/passwd: "
                + "Headway does not follow a web page's redirect out of http(s)"), "\(message)")
            #expect(page.url?.isFileURL != true)
            let next = try await page.load(server.url.appendingPathComponent("second.html"))
            #expect(next.title == "Second")
        }
    }
}
