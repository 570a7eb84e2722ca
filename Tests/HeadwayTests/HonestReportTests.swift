import Foundation
@testable import Headway
import HeadwayTestSupport
import Testing

/// What a load reports is whole or says it is not: resources past the Resource Timing buffer,
/// and an init script's exception with its own message, file and line.
@Suite("Honest reports", .serialized)
@EngineActor
struct HonestReportTests {
    static func images(_ count: Int) -> String {
        "<!doctype html><title>Images</title>"
            + (0..<count).map { "<img src=\"/dot.svg?\($0)\">" }.joined()
    }

    @Test func resourcesPastTheTimingBufferAreMarkedAndCounted() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/dot.svg", HTTPResponse(headers: [("Content-Type", "image/svg+xml")], body: Data(Fixtures.svg.utf8)))
        server.route("/many.html", .html(Self.images(320)))
        server.route("/few.html", .html(Self.images(10)))
        let (many, few) = try await Browser.withPage { page in
            (try await page.load(server.url.appendingPathComponent("many.html")),
             try await page.load(server.url.appendingPathComponent("few.html")))
        }
        #expect(many.resources.truncated)
        #expect(many.resources.count >= 320)
        #expect(!few.resources.truncated)
        #expect(few.resources.count == 10)
    }
}
