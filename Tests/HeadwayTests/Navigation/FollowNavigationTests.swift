import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// `Page.followNavigation`: the navigation an action started, if it started one, followed from
/// WebKit's events: forms submitted by a button, by Enter and by a script on a timer, fragments,
/// `pushState`, history within the document, downloads; and `latestLoad` for every navigation.
@Suite("Following the navigation an action started", .serialized)
@EngineActor
struct FollowNavigationTests {
    static let form = """
        <!doctype html><title>Form</title>
        <form id=f action="/next.html"><input id=q name=q value=x><button id=go>Go</button></form>
        <form id=late action="/next.html" onsubmit="event.preventDefault(); setTimeout(() => this.submit(), 0)">
          <button id=later>Later</button></form>
        <a id=frag href="#part">part</a> <a id=file href="/file.bin">file</a> <p id=part>here</p>
        <button id=push onclick="history.pushState({}, '', '/pushed.html')">push</button>
        <button id=none onclick="this.textContent = 'pressed'">none</button>
        """

    static func server() throws -> HTTPServer {
        let server = try Fixtures.server()
        server.route("/form.html", .html(form))
        server.route("/next.html", .html("<title>Next</title><p>next"))
        server.route("/file.bin", .init(status: 200, headers: [("Content-Type", "application/octet-stream"),
                                                                ("Content-Disposition", "attachment")],
                                        body: Data("bytes".utf8)))
        return server
    }

    @Test func formsSubmittedByAButtonByEnterAndByAScriptAreFollowed() async throws {
        let server = try Self.server()
        defer { server.stop() }
        try await Browser.withPage { page in
            let form = server.url.appendingPathComponent("form.html")
            try await page.load(form)
            let byButton = try await page.followNavigation { try await page.click(selector: "#go") }
            #expect(byButton?.title == "Next" && byButton?.status == 200)
            #expect(page.title == "Next", "the new page is there when the call returns")
            #expect(byButton?.finalURL.path == "/next.html" && byButton?.finalURL.query == "q=x")
            #expect(page.latestLoad == byButton)

            try await page.load(form)
            try await page.click(selector: "#q")
            let byEnter = try await page.followNavigation { try await page.press("Enter") }
            #expect(byEnter?.title == "Next" && page.title == "Next")

            try await page.load(form)
            let byScript = try await page.followNavigation { try await page.click(selector: "#later") }
            #expect(byScript?.title == "Next" && page.title == "Next")
        }
    }

    @Test func sameDocumentNavigationsEndAtOnce() async throws {
        let server = try Self.server()
        defer { server.stop() }
        try await Browser.withPage { page in
            let form = server.url.appendingPathComponent("form.html")
            let loaded = try await page.load(form)
            let fragment = try await page.followNavigation { try await page.click(selector: "#frag") }
            #expect(fragment?.isSameDocument == true && fragment?.finalURL.fragment == "part")
            #expect(fragment?.timing == loaded.timing, "the document's own load")
            let pushed = try await page.followNavigation { try await page.click(selector: "#push") }
            #expect(pushed?.isSameDocument == true && pushed?.finalURL.path == "/pushed.html")
            // Back to an entry of the same document, and a fragment load of the page shown.
            let back = try await page.goBack(timeout: .seconds(10))
            #expect(back.isSameDocument && back.finalURL.fragment == "part" && page.url?.fragment == "part")
            let other = URL(string: form.absoluteString + "#other")!
            let load = try await page.load(other, timeout: .seconds(10))
            #expect(load.isSameDocument && load.finalURL == other && page.url == other)
            #expect(try await page.evaluate("location.hash") == "#other")
        }
    }

    // Each navigation within the document reaches the delegate once, whoever made it.
    @Test func theDelegateHearsEachSameDocumentNavigation() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let log = WithinDocumentLog()
        try await Browser.withPage(delegate: log) { page in
            let form = server.url.appendingPathComponent("form.html")
            try await page.load(form)
            #expect(log.urls.isEmpty, "a load is no navigation within the document")
            _ = try await page.followNavigation { try await page.click(selector: "#frag") }
            _ = try await page.followNavigation { try await page.click(selector: "#push") }
            try await page.goBack(timeout: .seconds(10))
            let other = URL(string: form.absoluteString + "#other")!
            try await page.load(other, timeout: .seconds(10))
            _ = try await page.evaluate("location.hash = 'more'")
            for _ in 0..<100 where log.urls.count < 5 { try await Task.sleep(for: .milliseconds(10)) }
            #expect(log.urls.map { $0.fragment ?? $0.path } == ["part", "/pushed.html", "part", "other", "more"])
        }
    }

    @Test func aFragmentOfADocumentStillLoadingReturnsAtOnce() async throws {
        let server = try Self.server()
        defer { server.stop() }
        server.route("/slow.html", .html("<title>Slow</title><p id=x>x</p><img src='/hang'>"))
        try await Browser.withPage { page in
            let url = server.url.appendingPathComponent("slow.html")
            try await page.load(url, until: .domContentLoaded)
            #expect(page.isLoading, "the image keeps the document loading")
            let fragment = URL(string: url.absoluteString + "#x")!
            let load = try await page.load(fragment, until: .domContentLoaded, timeout: .seconds(10))
            #expect(load.isSameDocument && page.url == fragment)
        }
    }

    @Test func actionsThatNavigateNowhereGiveNilAndDownloadsThrow() async throws {
        let server = try Self.server()
        defer { server.stop() }
        try await Browser.withPage { page in
            let loaded = try await page.load(server.url.appendingPathComponent("form.html"))
            let none = try await page.followNavigation { try await page.click(selector: "#none") }
            #expect(none == nil)
            #expect(try await page.evaluate("document.getElementById('none').textContent") == "pressed")
            let nothing = try await page.followNavigation {}
            #expect(nothing == nil)
            #expect(page.latestLoad == loaded)
            do {
                _ = try await page.followNavigation { try await page.click(selector: "#file") }
                Issue.record("a download is no page")
            } catch let error as HeadwayError {
                #expect(error.code == .notAPage, "\(error)")
            }
            #expect(page.title == "Form")
        }
    }

    @Test func aNavigationNobodyFollowsIsRecordedAndReported() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let loads = LoadLog()
        try await Browser.withPage(delegate: loads) { page in
            try await page.load(server.url.appendingPathComponent("form.html"))
            _ = try await page.evaluate("setTimeout(() => { location.href = '/next.html'; }, 50); 0")
            let next = try await loads.next(after: 1)
            #expect(next.title == "Next" && next.finalURL.path == "/next.html" && next.timing.loadEventEnd > 0)
            #expect(page.latestLoad == next)
        }
    }
}

// The results a page's delegate was given, in order.
@EngineActor
final class LoadLog: NavigationDelegate {
    private(set) var results: [LoadResult] = []

    func page(_ page: Page, didLoad result: LoadResult) { results.append(result) }

    // The result after the first `count`, waiting at most 10 s.
    func next(after count: Int) async throws -> LoadResult {
        for _ in 0..<1000 where results.count <= count { try await Task.sleep(for: .milliseconds(10)) }
        return try #require(results.count > count ? results[count] : nil)
    }
}

final class WithinDocumentLog: NavigationDelegate {
    private(set) var urls: [URL] = []
    func page(_ page: Page, didNavigateWithinDocument url: URL) { urls.append(url) }
}
