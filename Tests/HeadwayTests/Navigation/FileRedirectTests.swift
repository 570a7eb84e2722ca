import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// An http page that redirects to a local file fails its load with a clear error.
@Suite("Redirects to file:", .serialized)
@EngineActor
struct FileRedirectTests {
    @Test func withTheBoosterARedirectToAFileFailsTheLoad() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/to-file", .redirect(to: "file:///etc/passwd"))
        var configuration = Browser.Configuration()
        configuration.booster = BoosterConfiguration()
        try await Browser.withPage(configuration: configuration) { page in
            let error = await #expect(throws: HeadwayError.self) {
                try await page.load(server.url.appendingPathComponent("to-file"), timeout: .seconds(20))
            }
            #expect(error?.code == .blockedURL, "\(String(describing: error))")
            #expect(error?.message == "\(server.url.absoluteString)to-file redirected to file:///etc/passwd: "
                + "Headway does not follow a web page's redirect out of http(s)")
            #expect(page.url?.isFileURL != true)
            let next = try await page.load(server.url.appendingPathComponent("second.html"))
            #expect(next.title == "Second")
        }
    }

    /// Without the booster too, on the first load and on another host's later one (which may run
    /// in another web process), and with the delegate told nothing of Headway's priming load.
    @Test func aRedirectToAFileFailsTheLoadAndThePageStaysUsable() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/to-file", .redirect(to: "file:///etc/passwd"))
        let delegate = RecordingDelegate()
        try await Browser.withPage(delegate: delegate) { page in
            let first = server.url.appendingPathComponent("to-file")
            let error = await #expect(throws: HeadwayError.self) { try await page.load(first, timeout: .seconds(20)) }
            #expect(error?.code == .blockedURL, "\(String(describing: error))")
            #expect(error?.message == "\(first.absoluteString) redirected to file:///etc/passwd: "
                + "Headway does not follow a web page's redirect out of http(s)")
            #expect(page.url?.isFileURL != true)
            let next = try await page.load(server.url.appendingPathComponent("second.html"))
            #expect(next.title == "Second")
            #expect(next.redirects.isEmpty)
            // Another host, after a page of the first one.
            var other = URLComponents(url: server.url, resolvingAgainstBaseURL: false)!
            other.host = "localhost"
            let later = await #expect(throws: HeadwayError.self) {
                try await page.load(other.url!.appendingPathComponent("to-file"), timeout: .seconds(20))
            }
            #expect(later?.code == .blockedURL, "\(String(describing: later))")
            let last = try await page.load(server.url.appendingPathComponent("page.html"))
            #expect(last.title == Fixtures.pageTitle)
        }
        // Headway's own priming of the view is not a navigation of the page.
        #expect(delegate.calls.first == "policy navigation /to-file", "\(delegate.calls)")
        #expect(!delegate.calls.contains { $0.hasPrefix("policy") && $0.hasSuffix(" /") }, "\(delegate.calls)")
        #expect(!delegate.calls.contains("terminated crashed"), "\(delegate.calls)")
    }

    /// Headway's priming of a new view is not seen: no URL or history before the first load, and
    /// a first load of `file:///` itself, which a user may ask for, is not taken for it.
    @Test func thePrimingLoadIsNotSeen() async throws {
        let delegate = RecordingDelegate()
        try await Browser.withPage(delegate: delegate) { page in
            #expect(page.url == nil)
            #expect(page.state.canGoBack == false)
            let result = try await page.load(URL(string: "file:///")!, timeout: .seconds(20))
            #expect(result.finalURL == URL(string: "file:///")!)
            #expect(result.redirects.isEmpty)
            #expect(page.state.canGoBack == false)
            let listing = try await page.evaluate("document.body.textContent.includes('etc')", as: Bool.self)
            #expect(listing)
        }
        #expect(delegate.calls.first == "policy navigation /", "\(delegate.calls)")
        #expect(delegate.calls.filter { $0.hasPrefix("policy") }.count == 1, "\(delegate.calls)")
    }

    /// The priming load gives web content no access to local files.
    @Test func pagesStillCannotReadLocalFiles() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/local.html", .html("""
            <!doctype html><title>Local</title><img id=i src="file:///usr/share/pixmaps/debian-logo.png">
            <iframe id=f src="file:///etc/passwd"></iframe>
            """))
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("local.html"))
            let result = try await page.run(Snippet(file: "local.js", source: """
                let fetched;
                try { fetched = (await (await fetch('file:///etc/passwd')).text()).length; } \
                catch (e) { fetched = 'refused'; }
                let framed;
                try { framed = document.getElementById('f').contentDocument?.body?.textContent.length \
                ?? 'no access'; } \
                catch (e) { framed = 'no access'; }
                ({ fetched, framed, image: document.getElementById('i').naturalWidth })
                """))
            let read = try #require(result.value, "\(String(describing: result.error))")
            #expect(read["fetched"]?.stringValue == "refused", "\(read)")
            #expect(read["framed"]?.stringValue == "no access" || read["framed"]?.doubleValue == 0, "\(read)")
            #expect(read["image"]?.doubleValue == 0, "\(read)")
        }
    }
}
