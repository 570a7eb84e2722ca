import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// `headway load --prefetch URL` fetches URL's document while the engine starts, behind nginx
/// (gzip, `Vary: Accept-Encoding`, ETag): one request for it, reported in the JSON.
@Suite("headway load, early document fetch", .serialized)
struct EarlyFetchCommandTests {
    @Test func theFirstDocumentIsFetchedOnceAndEarly() throws {
        let root = try DiskCacheSite.make()
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try NginxServer(root: root)
        defer { nginx.stop() }
        let output = try CLI.run([
            "load", "--prefetch", "--prefetch-settle", "0",
            nginx.url.appendingPathComponent("index.html").absoluteString,
        ])
        #expect(output.status == 0, "\(output.stderr)")
        let load = try #require(try CLI.loads(output, jsonl: false).first)
        let prefetch = try #require(load["prefetch"] as? [String: Any])
        #expect(prefetch["documentFetchedEarly"] as? Bool == true, "\(prefetch)")
        let logged = nginx.waitForRequests(count: DiskCacheSite.pagePaths.count)
        #expect(logged.filter { $0.path == "/index.html" }.count == 1, "\(logged.map(\.path))")
    }
}
