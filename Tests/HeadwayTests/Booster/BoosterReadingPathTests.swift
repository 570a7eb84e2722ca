import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// A reading path behind nginx (gzip, `Vary`, ETags, max-age): chapters with `<link rel=next>`,
/// a table of contents linking every chapter, and a shared style sheet and script.
@Suite("Booster: a reading path behind nginx", .serialized)
@EngineActor
struct BoosterReadingPathTests {
    static let chapters = 12

    static func site() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("headway-reading-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        func write(_ path: String, _ text: String) throws {
            try text.write(to: root.appendingPathComponent(path), atomically: true, encoding: .utf8)
        }
        let toc = (1...chapters).map { "<li><a href=\"ch\($0).html\">Chapter \($0)</a></li>" }.joined()
        for n in 1...chapters {
            let next = n < chapters ? "<link rel=\"next\" href=\"ch\(n + 1).html\">" : ""
            try write("ch\(n).html", """
                <!doctype html><html><head><meta charset=utf-8><title>Chapter \(n)</title>\(next)
                <link rel="stylesheet" href="book.css"><script src="book.js"></script></head>
                <body><nav><ul>\(toc)</ul></nav><h1>Chapter \(n)</h1>
                <p>\(String(repeating: "Chapter \(n) goes on, as chapters do. ", count: 80))</p></body></html>
                """)
        }
        try write("book.css", String(repeating: "p { margin: 1em; line-height: 1.5 }\n", count: 200))
        try write("book.js", "window.book = 1;\n" + String(repeating: "// shared by every chapter\n", count: 200))
        return root
    }

    @Test func theNextChapterComesFromTheBoosterAndTheSharedFilesAreFetchedOnce() async throws {
        let root = try Self.site()
        defer { try? FileManager.default.removeItem(at: root) }
        let nginx = try NginxServer(root: root)
        defer { nginx.stop() }
        let browser = try Browser(configuration: BoosterSite.configuration())
        defer { browser.close() }
        let page = try browser.newPage()
        try await page.load(nginx.url.appendingPathComponent("ch1.html"))
        await browser.settlePrefetch()
        let first = try #require(browser.prefetchStats)
        // The chapter hints at the next one (`<link rel=next>`): moderate fetches that alone.
        #expect(first.pagesPrefetched == 1, "\(first)")
        #expect(first.linksLeftOut[.eagerness] > 0, "moderate: not the other chapters of the contents")
        for n in 2...3 {
            let chapter = try await page.load(nginx.url.appendingPathComponent("ch\(n).html"))
            #expect(chapter.title == "Chapter \(n)")
            let load = try #require(chapter.prefetch)
            #expect(load.hit && load.fetched == 0, "chapter \(n): \(load)")
            #expect(load.bytesUsed > 0)
            await browser.settlePrefetch()
        }
        let requests = nginx.waitForRequests(count: 0)
        #expect(requests.filter { $0.path == "/book.css" }.count == 1, "the style sheet reached nginx once")
        #expect(requests.filter { $0.path == "/book.js" }.count == 1, "the script reached nginx once")
        #expect(requests.contains { $0.path == "/ch2.html" && $0.contentEncoding == "gzip" })
        let stats = try #require(browser.prefetchStats)
        #expect(stats.hits == 2)
    }
}
