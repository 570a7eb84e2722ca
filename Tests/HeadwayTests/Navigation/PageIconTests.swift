import Foundation
import Headway
import HeadwayTestSupport
import Testing

// WebKit asks for the page icon around the load event; a load lets that request end, so a page
// closed right after its load still made every request a browser would have made.
@Suite("Page icon", .serialized)
@EngineActor
struct PageIconTests {
    @Test func aLoadReturnsOnceItsIconRequestHasBeenAnswered() async throws {
        // Every answer comes 300 ms after its request: the icon's comes well after the load event.
        let server = try Fixtures.server(conditions: NetworkConditions(latency: .seconds(0.3)))
        defer { server.stop() }
        server.route("/icon.html", .html("<!doctype html><title>Icon</title><p>a page with the default icon"))
        server.route(
            "/favicon.ico",
            HTTPResponse(headers: [("Content-Type", "image/svg+xml")], body: Data(Fixtures.svg.utf8))
        )
        try await Browser.withPage { page in
            let result = try await page.load(server.url.appendingPathComponent("icon.html"))
            #expect(result.status == 200)
            try await Self.expectAnswered("/favicon.ico", after: "/icon.html", by: server)
        }
        #expect(server.requestCount(path: "/favicon.ico") == 1)
    }

    @Test func aDeclaredIconIsWaitedForToo() async throws {
        let server = try Fixtures.server(conditions: NetworkConditions(latency: .seconds(0.3)))
        defer { server.stop() }
        server.route(
            "/declared.html",
            .html("<!doctype html><title>Declared</title><link rel=icon href=/pixel.svg><p>icon")
        )
        try await Browser.withPage { page in
            _ = try await page.load(server.url.appendingPathComponent("declared.html"))
            try await Self.expectAnswered("/pixel.svg", after: "/declared.html", by: server)
        }
    }

    // The icon request reached the server before the load returned, and its answer was sent
    // whole. The server, on the engine thread too, logs an answer at its own `finished` event,
    // which may come a moment after WebKit's side of the same request ended: hence the wait.
    private static func expectAnswered(_ icon: String, after document: String, by server: HTTPServer) async throws {
        #expect(server.requestCount(path: icon) == 1, "the load returned before WebKit asked for \(icon)")
        let paths = try await waitFor("the server to log \(icon)", within: .seconds(5),
                                      { server.requests.map(\.path) }, until: { $0.contains(icon) })
        #expect(paths == [document, icon])
    }

    @Test func anIconThatNeverAnswersDoesNotHoldTheLoad() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/silent.html", .html("<!doctype html><title>Silent icon</title><p>its icon never answers"))
        server.route("/favicon.ico", .hang)
        try await Browser.withPage { page in
            // The icon wait is bounded (1 s) well inside this load's timeout.
            let result = try await page.load(server.url.appendingPathComponent("silent.html"), timeout: .seconds(10))
            #expect(result.title == "Silent icon")
            #expect(server.requestCount(path: "/favicon.ico") == 1)
        }
    }

    @Test func aLoadThatEndsAtDOMContentLoadedDoesNotWaitForTheIcon() async throws {
        let server = try Fixtures.server(conditions: NetworkConditions(latency: .seconds(0.3)))
        defer { server.stop() }
        server.route("/dcl.html", .html("<!doctype html><title>DCL</title><p>done early"))
        try await Browser.withPage { page in
            _ = try await page.load(server.url.appendingPathComponent("dcl.html"), until: .domContentLoaded)
            #expect(!server.requests.map(\.path).contains("/favicon.ico"))
        }
    }
}
