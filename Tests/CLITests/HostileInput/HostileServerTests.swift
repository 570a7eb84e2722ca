import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// `headway load` against servers and pages that misbehave on purpose: each case ends within
/// its bound with its documented exit status, one stderr line when it fails, JSON that says
/// what happened (and matches the schema, which CLI.run checks), and no process left behind.
/// With BadInputTests' table this is the hostile-input suite.
@Suite("headway load against misbehaving servers and pages", .serialized)
@EngineActor
struct HostileServerTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        /// The arguments, given the misbehaving server's and the page server's base URLs.
        var arguments: @Sendable (_ raw: URL, _ pages: URL) throws -> [String]
        var status: Int32
        /// What the one stderr line says (nil: no error line).
        var message: String?
        /// The JSON error code of the load, when it failed.
        var errorCode: String? = nil
        var testDescription: String { name }
    }

    nonisolated static let cases: [Case] = [
        // Servers that do not answer as HTTP should.
        Case(name: "silent server", arguments: { raw, _ in
                ["load", raw.appendingPathComponent("silent").absoluteString, "--timeout", "2"] },
             status: 4, message: "did not finish within 2 s", errorCode: "timeout"),
        Case(name: "dripping body", arguments: { raw, _ in
                ["load", raw.appendingPathComponent("drip").absoluteString, "--timeout", "2"] },
             status: 4, message: "did not finish within 2 s", errorCode: "timeout"),
        Case(name: "headers a byte at a time", arguments: { raw, _ in
                ["load", raw.appendingPathComponent("slow-headers").absoluteString, "--timeout", "2"] },
             status: 4, message: "did not finish within 2 s", errorCode: "timeout"),
        Case(name: "headers cut short", arguments: { raw, _ in
                ["load", raw.appendingPathComponent("cut-headers").absoluteString] },
             status: 3, message: "Could not parse HTTP response", errorCode: "loadFailed"),
        Case(name: "not HTTP at all", arguments: { raw, _ in
                ["load", raw.appendingPathComponent("garbage").absoluteString] },
             status: 3, message: "Could not parse HTTP response", errorCode: "loadFailed"),
        Case(name: "body shorter than its length", arguments: { raw, _ in
                ["load", raw.appendingPathComponent("short-body").absoluteString] },
             status: 3, message: "Connection terminated unexpectedly", errorCode: "loadFailed"),
        Case(name: "a 1 MB header", arguments: { raw, _ in
                ["load", raw.appendingPathComponent("huge-header").absoluteString] },
             status: 3, message: "Header too big", errorCode: "loadFailed"),
        Case(name: "redirect loop", arguments: { raw, _ in
                ["load", raw.appendingPathComponent("loop").absoluteString] },
             status: 3, message: "more than 20 redirections", errorCode: "loadFailed"),
        Case(name: "malformed chunks", arguments: { raw, _ in
                ["load", raw.appendingPathComponent("bad-chunks").absoluteString] },
             status: 0, message: nil),
        Case(name: "control bytes as HTML", arguments: { raw, _ in
                ["load", raw.appendingPathComponent("binary").absoluteString] },
             status: 0, message: nil),
        Case(name: "empty page", arguments: { raw, _ in ["load", raw.appendingPathComponent("empty").absoluteString] },
             status: 0, message: nil),
        // The same through the booster's scheme handler.
        Case(name: "booster: silent server", arguments: { raw, _ in
                ["load", "--prefetch", raw.appendingPathComponent("silent").absoluteString, "--timeout", "2"] },
             status: 4, message: "did not finish within 2 s", errorCode: "timeout"),
        Case(name: "booster: not HTTP at all", arguments: { raw, _ in
                ["load", "--prefetch", raw.appendingPathComponent("garbage").absoluteString] },
             status: 3, message: "Could not parse HTTP response", errorCode: "loadFailed"),
        Case(name: "booster: redirect to a local file", arguments: { raw, _ in
                ["load", "--prefetch", raw.appendingPathComponent("to-file").absoluteString] },
             status: 3, message: "does not follow a web page's redirect out of http(s)", errorCode: "blockedURL"),
        Case(name: "booster: redirect loop", arguments: { raw, _ in
                ["load", "--prefetch", raw.appendingPathComponent("loop").absoluteString] },
             status: 3, message: "more than 20 redirections", errorCode: "loadFailed"),
        // Pages that misbehave.
        Case(name: "page spinning in JavaScript", arguments: { _, pages in
                ["load", pages.appendingPathComponent("spin.html").absoluteString, "--timeout", "3"] },
             status: 4, message: "did not finish within 3 s", errorCode: "timeout"),
        Case(name: "snippet stuck in while(true)", arguments: { _, pages in
                ["load", pages.appendingPathComponent("page.html").absoluteString,
                 "--script", try Fixtures.file("spin.js", "while (true) {}"),
                 "--script-timeout", "1"] },
             status: 5, message: "did not settle within 1 s"),
        Case(name: "alert, confirm and prompt", arguments: { _, pages in
                ["load", pages.appendingPathComponent("dialogs.html").absoluteString] },
             status: 0, message: nil),
        Case(name: "a beforeunload prompt on the way out", arguments: { _, pages in
                ["load", pages.appendingPathComponent("unload.html").absoluteString,
                 pages.appendingPathComponent("page.html").absoluteString] },
             status: 0, message: nil),
        Case(name: "a page that eats memory", arguments: { _, pages in
                ["load", pages.appendingPathComponent("hog.html").absoluteString,
                 "--memory-limit", "300", "--timeout", "60"] },
             status: 69, message: "web process", errorCode: "engine"),
        Case(name: "terminal escapes in the title, text output", arguments: { _, pages in
                ["load", pages.appendingPathComponent("escapes.html").absoluteString, "--format", "text"] },
             status: 0, message: nil),
        Case(name: "an image that never arrives, ending at DOMContentLoaded", arguments: { _, pages in
                ["load", pages.appendingPathComponent("hanging-image.html").absoluteString,
                 "--wait-until", "domcontentloaded", "--timeout", "10"] },
             status: 0, message: nil),
        Case(name: "waiting for an element that never comes", arguments: { _, pages in
                ["load", pages.appendingPathComponent("page.html").absoluteString,
                 "--wait-for", "#never", "--timeout", "2"] },
             status: 4, message: "no element matched #never within", errorCode: "timeout"),
        Case(name: "a 1 MB title", arguments: { _, pages in
                ["load", pages.appendingPathComponent("long-title.html").absoluteString] },
             status: 0, message: nil),
    ]

    @Test(arguments: cases)
    func hostile(_ item: Case) async throws {
        let raw = try MisbehavingServer()
        defer { raw.stop() }
        let pages = try Fixtures.server()
        defer { pages.stop() }
        pages.route("/spin.html", .html("<!doctype html><title>Spin</title><script>while (true) {}</script>"))
        pages.route("/unload.html", .html("<!doctype html><title>Stay</title><script>"
            + "addEventListener('beforeunload', e => { e.preventDefault(); e.returnValue = 'stay?'; })</script>"))
        pages.route("/escapes.html", .html("<!doctype html><title>\u{1B}]0;owned\u{7}\u{1B}[2J\u{1B}[31mred</title>"))
        pages.route("/hanging-image.html", .html("<!doctype html><title>Hanging</title><p>text<img src=\"/hang\">"))
        pages.route(
            "/long-title.html",
            .html("<!doctype html><title>" + String(repeating: "t", count: 1 << 20) + "</title>")
        )
        let arguments = try item.arguments(raw.url, pages.url)
        let started = Date()
        let output = try await Task.detached {
            try CLI.run(arguments, timeout: 90, environment: ["DISPLAY": nil])
        }.value
        #expect(Date().timeIntervalSince(started) < 60, "ended within its bound")
        #expect(output.status == item.status, "stderr: \(output.stderr)")
        let errors = output.stderr.split(separator: "\n").filter { $0.hasPrefix("headway: error:") }
        if item.status == 0 {
            #expect(errors.isEmpty, "stderr: \(output.stderr)")
        } else {
            #expect(errors.count == 1, "stderr: \(output.stderr)")
            if let message = item.message {
                #expect(errors.first?.contains(message) == true, "stderr: \(output.stderr)")
            }
        }
        if !arguments.contains("text") {
            let load = try #require((try CLI.json(output)["loads"] as? [[String: Any]])?.first)
            let error = load["error"] as? [String: Any]
            #expect(error?["code"] as? String == item.errorCode, "JSON error: \(String(describing: error))")
            if item.name.hasPrefix("alert") {
                #expect((load["dialogs"] as? [Any])?.count == 3)
            }
            if item.name.hasPrefix("a 1 MB title") {
                #expect((load["title"] as? String)?.count == 1 << 20)
            }
        } else {
            #expect(!output.stdout.contains("\u{1B}"), "no terminal escapes reach the terminal")
            #expect(output.stdout.contains("red"))
        }
        let leftover = await onOwnThread { output.leftover() }
        #expect(leftover.isEmpty, "left running: \(leftover)")
    }
}
