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
        let svg = HTTPResponse(headers: [("Content-Type", "image/svg+xml")], body: Data(Fixtures.svg.utf8))
        server.route("/dot.svg", svg)
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

    @Test func anInitScriptsExceptionKeepsItsMessageFileAndLine() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        var configuration = Browser.Configuration()
        configuration.initScripts = ["window.before = 1;",
                                     "const kept = 2;\nwindow.ok = kept;\nthrow new Error(\"boom\");\n"]
        let (errors, kept) = try await Browser.withPage(configuration: configuration) { page in
            try await page.load(server.url.appendingPathComponent("page.html"))
            return (page.errors, try await page.evaluate("typeof kept === 'number' && window.ok === 2"))
        }
        let error = try #require(errors.first, "no error reported")
        #expect(error.message.contains("boom"), "\(errors)")
        #expect(error.file.contains("init-script-2"), "\(errors)")
        #expect(error.line == 3, "\(errors)")
        #expect(kept == true)
    }

    // Where the page's Content-Security-Policy forbids inline scripts, init scripts still run
    // (as user scripts, whose errors WebKit masks), once each, and nothing else is reported.
    @Test func initScriptsRunOnceUnderAStrictContentSecurityPolicy() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/strict.html", HTTPResponse(headers: [("Content-Type", "text/html"),
                                                            ("Content-Security-Policy", "script-src 'none'")],
                                                  body: Data("<!doctype html><title>Strict</title>".utf8)))
        var configuration = Browser.Configuration()
        configuration.initScripts = ["let early = 1;\nwindow.runs = (window.runs || 0) + early;\n"
                                     + "function f() {}\nwindow.g = f;"]
        for path in ["strict.html", "page.html"] {
            let (runs, same, errors) = try await Browser.withPage(configuration: configuration) { page in
                try await page.load(server.url.appendingPathComponent(path))
                return (try await page.evaluate("window.runs"), try await page.evaluate("window.g === f"),
                        page.errors)
            }
            #expect(runs == 1, "\(path)")
            #expect(same == true, "\(path)")
            #expect(errors.isEmpty, "\(path): \(errors)")
        }
    }
}
