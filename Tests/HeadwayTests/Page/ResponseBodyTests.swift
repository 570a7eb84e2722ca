import Foundation
import Headway
import HeadwayTestSupport
import Testing

@Suite("Response bodies", .serialized)
@EngineActor
struct ResponseBodyTests {
    // nginx with gzip: the bodies are WebKit's decoded ones, as the files hold them. The JSON is
    // fetched, and WebKit keeps no body for it.
    @Test func aPagesResponsesCanBeRead() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("headway-bodies-\(UUID())")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let style = "p { color: rgb(1, 2, 3); }\n" + String(repeating: "/* padding for gzip */\n", count: 200)
        let json = #"{"answer": 42, "text": "\#(String(repeating: "é", count: 300))"}"#
        try style.write(to: root.appendingPathComponent("style.css"), atomically: true, encoding: .utf8)
        try json.write(to: root.appendingPathComponent("data.json"), atomically: true, encoding: .utf8)
        try "".write(to: root.appendingPathComponent("empty.css"), atomically: true, encoding: .utf8)
        try """
            <!doctype html><title>Bodies</title><link rel=stylesheet href=style.css><link rel=stylesheet href=empty.css>
            <script>fetch('data.json').then(r => r.text())
              .then(t => { document.title = 'fetched ' + t.length; });</script>
            """.write(to: root.appendingPathComponent("page.html"), atomically: true, encoding: .utf8)
        let nginx = try NginxServer(root: root)
        defer { nginx.stop() }
        let log = RequestLog()
        try await Browser.withPage(delegate: log) { page in
            try await page.load(nginx.url.appendingPathComponent("page.html"))
            try await waitFor("the fetch") { page.title.hasPrefix("fetched") }
            let ended = log.events.filter { $0.0 == "ended" }.map(\.1)
            func body(_ name: String) async throws -> String {
                let request = try #require(ended.first { $0.url.lastPathComponent == name })
                return String(decoding: try await page.responseBody(of: request), as: UTF8.self)
            }
            #expect(try await body("style.css") == style)
            // WebKit keeps no body for a fetch: an error, not an empty body.
            let error = await #expect(throws: HeadwayError.self) { try await body("data.json") }
            #expect(error?.message.contains("fetch()") == true)
            #expect(try await body("page.html").contains("<title>Bodies</title>"))
            #expect(try await body("empty.css") == "")
            // A request still in flight, or never ended with a response, has none.
            let sent = try #require(log.events.first { $0.0 == "sent" }?.1)
            var unknown = sent
            unknown.id = 10_000
            await #expect(throws: HeadwayError.self) { try await page.responseBody(of: unknown) }
        }
        // gzip was on the wire.
        let styleRequest = nginx.waitForRequests(count: 4).first { $0.uri == "/style.css" }
        #expect(styleRequest?.contentEncoding == "gzip")
    }
}
