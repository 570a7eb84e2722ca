import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// `Browser.Configuration.inspectorPort`. WebKit reads the inspector's address once per process,
/// when the first web context is made, so each case runs in a fresh process (an exit test) where
/// no browser was made before.
@Suite("Inspector port")
struct InspectorPortTests {
    @Test func theFirstBrowserServesItAndALaterOneCannotMoveIt() async {
        await #expect(processExitsWith: .success) { try await Self.servedOncePerProcess() }
    }

    @Test func aBrowserAfterTheFirstCannotStartIt() async {
        await #expect(processExitsWith: .success) { try await Self.askedTooLate() }
    }

    @Test(arguments: [0, -1, 65536]) func aPortOutsideTheRangeIsRefused(_ port: Int) async {
        let error = await Self.refusal(port: port)
        #expect(error == HeadwayError(.invalidArgument, "the inspector port must be 1 to 65535, not \(port)"))
    }

    @EngineActor static func servedOncePerProcess() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/page.html", .html("<!doctype html><title>inspected</title><p>here"))
        let url = server.url.appendingPathComponent("page.html")
        let port = try NginxServer.freePort()
        let other = port == 65535 ? port - 1 : port + 1
        var configuration = Browser.Configuration()
        configuration.inspectorPort = port
        let browser = try Browser(configuration: configuration)
        defer { browser.close() }
        let page = try browser.newPage()
        try await page.load(url)
        // WebKit's HTTP server answers on the engine thread: ask from another one.
        let listing = try await onOwnThread { Result { try Curl.get(URL(string: "http://127.0.0.1:\(port)/")!) } }.get()
        let targets = String(decoding: listing.body, as: UTF8.self)
        #expect(listing.status == 200)
        #expect(targets.contains("Inspectable targets"))
        #expect(targets.contains(url.absoluteString), "\(targets)")
        #expect(page.title == "inspected")
        let same = try Browser(configuration: configuration)
        same.close()
        configuration.inspectorPort = other
        #expect(
            throws: HeadwayError(
                .invalidArgument,
                "the inspector is served once per process: it already listens on port \(port), not \(other)"
            )
        ) {
            try Browser(configuration: configuration)
        }
    }

    @EngineActor static func askedTooLate() async throws {
        try Browser().close()
        var configuration = Browser.Configuration()
        configuration.inspectorPort = try NginxServer.freePort()
        #expect(
            throws: HeadwayError(
                .invalidArgument,
                "the inspector must be asked for by the process's first browser: WebKit reads its port once"
            )
        ) {
            try Browser(configuration: configuration)
        }
    }

    @EngineActor static func refusal(port: Int) -> HeadwayError? {
        var configuration = Browser.Configuration()
        configuration.inspectorPort = port
        do {
            try Browser(configuration: configuration).close()
            return nil
        } catch {
            return error as? HeadwayError
        }
    }
}
