import Foundation
import Headway
import HeadwayTestSupport
import Testing

@Suite("Client redirects", .serialized)
@EngineActor
struct ClientRedirectTests {
    static let starts: [String: String] = [
        "/replace.html": "<script>location.replace('/second.html')</script><p>replaced",
        "/href.html": "<script>location.href = '/second.html'</script><p>assigned",
        "/slow.html":
            "<img src='/hang'><script>location.replace('/second.html')</script><p>cancels a load still running",
        "/onload.html": "<script>onload = () => { location.href = '/second.html' }</script><p>on load",
        "/after.html":
            "<script>onload = () => setTimeout(() => { location.href = '/second.html' }, 0)</script><p>after load",
        "/meta.html": "<meta http-equiv='refresh' content='0; url=/second.html'><p>meta refresh",
    ]

    static func server() throws -> HTTPServer {
        let server = try Fixtures.server()
        for (path, body) in starts { server.route(path, .html("<!doctype html><title>Start</title>\(body)")) }
        // An absolute URL, which the booster's web-process extension brings into its mirror scheme.
        server.route(
            "/absolute.html",
            .html("<!doctype html><title>Start</title><script>location.replace('\(server.url)second.html')</script>")
        )
        server.route(
            "/late.html",
            .html("<!doctype html><title>Late</title><meta http-equiv='refresh' content='5; url=/second.html'>")
        )
        server.route(
            "/frame.html",
            .html(
                """
                <!doctype html><title>Frame</title><iframe src='/second.html'></iframe>
                <script>onload = () => { document.querySelector('iframe').src = '/page.html' }</script>
                """
            )
        )
        return server
    }

    @Test(arguments: [false, true])
    func aClientRedirectEndsTheLoadAtItsTarget(booster: Bool) async throws {
        let server = try Self.server()
        defer { server.stop() }
        let browser = try Browser(configuration: booster ? BoosterSite.configuration() : Browser.Configuration())
        defer { browser.close() }
        for path in Self.starts.keys.sorted() + ["/absolute.html"] {
            let delegate = RecordingDelegate()
            let page = try browser.newPage(delegate: delegate)
            defer { page.close() }
            let start = server.url.appendingPathComponent(String(path.dropFirst()))
            let target = server.url.appendingPathComponent("second.html")
            let result = try await page.load(start, timeout: .seconds(10))
            #expect(result.url == start, "\(path)")
            #expect(result.finalURL == target, "\(path)")
            #expect(result.title == "Second", "\(path)")
            #expect(result.status == 200, "\(path)")
            #expect(result.redirects == [Redirect(from: start, to: target, kind: .client)], "\(path)")
            #expect(result.timing.finished >= result.timing.committed && result.timing.committed > .zero, "\(path)")
            #expect(delegate.calls.contains("redirected /second.html"), "\(path): \(delegate.calls)")
            #expect(!delegate.calls.contains { $0.hasPrefix("failed") }, "\(path): \(delegate.calls)")
        }
    }

    @Test func aLateRefreshOrAFrameNavigationIsNotARedirect() async throws {
        let server = try Self.server()
        defer { server.stop() }
        try await Browser.withPage { page in
            for path in ["late.html", "frame.html"] {
                let url = server.url.appendingPathComponent(path)
                let result = try await page.load(url)
                #expect(result.finalURL == url)
                #expect(result.redirects.isEmpty)
            }
        }
    }

    @Test func serverRedirectsAreReportedAsHops() async throws {
        let server = try Self.server()
        defer { server.stop() }
        server.route("/to-replace", .redirect(to: "/replace.html"))
        try await Browser.withPage { page in
            let start = server.url.appendingPathComponent("to-replace")
            let result = try await page.load(start)
            let middle = server.url.appendingPathComponent("replace.html")
            let end = server.url.appendingPathComponent("second.html")
            #expect(
                result.redirects == [
                    Redirect(from: start, to: middle, kind: .http), Redirect(from: middle, to: end, kind: .client),
                ]
            )
        }
    }
}

@Suite("Superseded loads", .serialized)
@EngineActor
struct SupersededLoadTests {
    @Test func aLateRedirectOfASupersededLoadNeverReplacesTheNewerNavigation() async throws {
        let slow = try Fixtures.server(conditions: NetworkConditions(latency: .seconds(1.0)))
        defer { slow.stop() }
        let fast = try Fixtures.server()
        defer { fast.stop() }
        let browser = try Browser(configuration: BoosterSite.configuration())
        defer { browser.close() }
        let page = try browser.newPage()
        let first = Task { @EngineActor in
            try await page.load(slow.url.appendingPathComponent("redirect"), timeout: .seconds(10))
        }
        try await waitFor("the first load's request", { slow.requestCount(path: "/redirect") }, until: { $0 > 0 })
        let second = try await page.load(fast.url.appendingPathComponent("second.html"))
        #expect(second.title == "Second")
        let error = await #expect(throws: HeadwayError.self) { try await first.value }
        #expect(error?.message.contains("superseded") == true)
        // The slow server answers the redirect after its latency; nothing may follow it.
        try await waitFor("the redirect answered") { slow.requests.contains { $0.path == "/redirect" } }
        // A dropped stale answer emits nothing: a bounded quiet period is the only observable.
        try await Task.sleep(for: .milliseconds(300))
        #expect(slow.requestCount(path: "/page.html") == 0)
        #expect(page.url == fast.url.appendingPathComponent("second.html"))
        #expect(page.title == "Second")
    }
}
