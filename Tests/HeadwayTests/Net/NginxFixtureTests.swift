import Foundation
import HeadwayTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("nginx fixture")
struct NginxFixtureTests {
    static let css = String(repeating: "p { color: #333; margin: 0 0 1em; }\n", count: 20)

    // A fresh directory with `style.css`, `index.html`, `ua/page.txt` and a 312,500-byte `blob.bin`.
    static func site() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "headway-nginx-site-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("ua"),
            withIntermediateDirectories: true
        )
        try css.write(to: root.appendingPathComponent("style.css"), atomically: true, encoding: .utf8)
        try Fixtures.page.write(to: root.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
        try "hello from /ua/\n".write(to: root.appendingPathComponent("ua/page.txt"), atomically: true, encoding: .utf8)
        try Data(count: 312_500).write(to: root.appendingPathComponent("blob.bin"))
        return root
    }

    @Test func cssComesBackGzippedWithValidatorsAndMaxAge() throws {
        let root = try Self.site()
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try NginxServer(root: root)
        defer { nginx.stop() }
        let response = try Curl.get(nginx.url.appendingPathComponent("style.css"), headers: ["Accept-Encoding": "gzip"])
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "text/css")
        #expect(response.header("Content-Encoding") == "gzip")
        #expect(response.header("Vary") == "Accept-Encoding")
        // nginx weakens the ETag of a response it compresses.
        #expect(response.header("ETag")?.hasPrefix("W/\"") == true)
        #expect(response.header("Last-Modified") != nil)
        #expect(response.header("Cache-Control") == "max-age=300")
        #expect(response.body.prefix(2) == Data([0x1f, 0x8b]))
        #expect(response.body.count < Self.css.utf8.count / 2)
        let html = try Curl.get(nginx.url.appendingPathComponent("index.html"), headers: ["Accept-Encoding": "gzip"])
        #expect(html.header("Content-Encoding") == "gzip")
        let plain = try Curl.get(nginx.url.appendingPathComponent("style.css"))
        #expect(plain.header("Content-Encoding") == nil)
        #expect(plain.body == Data(Self.css.utf8))
    }

    @Test func aConditionalRequestWithTheETagGets304() throws {
        let root = try Self.site()
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try NginxServer(root: root)
        defer { nginx.stop() }
        let url = nginx.url.appendingPathComponent("style.css")
        let first = try Curl.get(url, headers: ["Accept-Encoding": "gzip"])
        let etag = try #require(first.header("ETag"))
        let lastModified = try #require(first.header("Last-Modified"))
        let byETag = try Curl.get(url, headers: ["Accept-Encoding": "gzip", "If-None-Match": etag])
        #expect(byETag.status == 304)
        #expect(byETag.body.isEmpty)
        // A 304 is not compressed, so it carries the strong form of the same tag.
        #expect(byETag.header("ETag").map { "W/" + $0 } == etag)
        let byDate = try Curl.get(url, headers: ["If-Modified-Since": lastModified])
        #expect(byDate.status == 304)
        let stale = try Curl.get(url, headers: ["If-None-Match": "\"not-the-etag\""])
        #expect(stale.status == 200)
    }

    @Test func theLogRecordsEachRequestWithItsHeaders() throws {
        let root = try Self.site()
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try NginxServer(root: root)
        defer { nginx.stop() }
        let url = try #require(URL(string: "style.css?v=1", relativeTo: nginx.url)?.absoluteURL)
        let first = try Curl.get(
            url,
            headers: [
                "Accept-Encoding": "gzip", "User-Agent": "fixture-agent/1.0",
                "Accept-Language": "de-CH", "Cookie": "session=abc", "Sec-Purpose": "prefetch",
            ]
        )
        let etag = try #require(first.header("ETag"))
        let lastModified = try #require(first.header("Last-Modified"))
        _ = try Curl.get(
            url,
            headers: ["Accept-Encoding": "gzip", "If-None-Match": etag, "If-Modified-Since": lastModified]
        )
        let log = nginx.waitForRequests(count: 2)
        try #require(log.count == 2)
        #expect(log[0].method == "GET")
        #expect(log[0].uri == "/style.css?v=1")
        #expect(log[0].path == "/style.css")
        #expect(log[0].status == 200)
        #expect(log[0].bytesSent >= first.body.count)
        #expect(log[0].contentEncoding == "gzip")
        #expect(log[0].acceptEncoding == "gzip")
        #expect(log[0].userAgent == "fixture-agent/1.0")
        #expect(log[0].acceptLanguage == "de-CH")
        #expect(log[0].cookie == "session=abc")
        #expect(log[0].secPurpose == "prefetch")
        #expect(log[0].ifNoneMatch == nil)
        #expect(log[1].status == 304)
        #expect(log[1].bytesSent == 0)
        #expect(log[1].ifNoneMatch == etag)
        #expect(log[1].ifModifiedSince == lastModified)
        #expect(log[1].secPurpose == nil)
        #expect(nginx.requestCount(path: "/style.css") == 2)
        #expect(nginx.requestCount(path: "/index.html") == 0)
    }

    @Test func optionsAddLocationsDropMaxAgeAndLimitTheRate() throws {
        let root = try Self.site()
        defer { try? FileManager.default.removeItem(at: root) }
        let options = NginxServer.Options(
            maxAge: nil,
            limitRate: "200k",
            extra: "location /ua/ { add_header Vary User-Agent; }"
        )
        let nginx = try NginxServer(root: root, options: options)
        defer { nginx.stop() }
        let page = try Curl.get(nginx.url.appendingPathComponent("ua/page.txt"), headers: ["Accept-Encoding": "gzip"])
        #expect(page.status == 200)
        #expect(page.header("Vary")?.contains("User-Agent") == true)
        #expect(page.header("Cache-Control") == nil)
        let start = Date()
        let blob = try Curl.get(nginx.url.appendingPathComponent("blob.bin"))
        #expect(blob.body.count == 312_500)
        // nginx sends the first second's worth at once: (312,500 - 204,800) B at 200 KiB/s is about 0.5 s.
        #expect(Date().timeIntervalSince(start) > 0.3)
    }

    @Test func stopEndsNginxAndCanBeCalledTwice() throws {
        let root = try Self.site()
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try NginxServer(root: root)
        let pid = nginx.pid
        #expect(kill(pid, 0) == 0)
        nginx.stop()
        #expect(kill(pid, 0) == -1 && errno == ESRCH)
        nginx.stop()
        #expect(throws: CLIError.self) { try Curl.get(nginx.url) }
    }

    @Test func aConfigNginxRejectsFailsWithItsMessage() throws {
        let root = try Self.site()
        defer { try? FileManager.default.removeItem(at: root) }
        let error = #expect(throws: NginxError.self) {
            try NginxServer(root: root, options: NginxServer.Options(extra: "no_such_directive on;"))
        }
        #expect(error?.description.contains("unknown directive \"no_such_directive\"") == true)
    }
}
