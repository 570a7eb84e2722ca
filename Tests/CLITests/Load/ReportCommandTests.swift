import Foundation
import HeadwayTestSupport
import Testing

/// `headway load --report FILE.html` behind nginx: the report of a cold load and a prefetched one,
/// opened in Headway itself, which checks what it shows (rows, frames that decode, curves, the
/// booster's requests marked), that it lays out, loads nothing and raises no error; and bad input
/// refused before any page loads.
@Suite("headway load --report", .serialized)
struct ReportCommandTests {
    static func site() throws -> (URL, NginxServer) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("headway-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try Data("""
            <!doctype html><title>Index</title><link rel=next href=article.html>
            <h1>Index</h1><a href=article.html>The article</a>
            """.utf8).write(to: root.appendingPathComponent("index.html"))
        try Data("""
            <!doctype html><title>Article</title><link rel=stylesheet href=article.css>
            <h1>Article</h1><img src=block.svg width=400 height=200><div id=late></div>
            <script>addEventListener('load', () => setTimeout(() => late.className = 'shown', 200));</script>
            """.utf8).write(to: root.appendingPathComponent("article.html"))
        try Data("body{margin:0;font:16px sans-serif} .shown{width:600px;height:200px;background:#c33}".utf8)
            .write(to: root.appendingPathComponent("article.css"))
        try Data("""
            <svg xmlns="http://www.w3.org/2000/svg" width="400" height="200"><rect width="400" height="200" \
            fill="#06c"/></svg>
            """.utf8).write(to: root.appendingPathComponent("block.svg"))
        return (root, try NginxServer(root: root))
    }

    // What Headway finds in the report when it loads it: the JSON of one load with the result of
    // a snippet that counts the report's parts and decodes each frame it shows.
    static func inspect(_ report: String) throws -> (load: [String: Any], found: [String: Any]) {
        let snippet = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString).js")
        defer { try? FileManager.default.removeItem(at: snippet) }
        try Data("""
            const q = s => [...document.querySelectorAll(s)];
            const names = new Set(q('.frame').map(f => [...f.classList].find(c => /^f\\d+-\\d+$/.test(c))));
            const images = [];
            for (const name of names) {
              const url = getComputedStyle(document.querySelector('.' + name)).backgroundImage
                .replace(/^url\\("?/, '').replace(/"?\\)$/, '');
              const image = new Image();
              image.src = url;
              await image.decode();
              images.push({ png: url.startsWith('data:image/png;base64,'), width: image.naturalWidth });
            }
            ({
              timingRows: q('table.timing tbody tr').length,
              filmRows: q('table.film tbody tr').map(r => r.querySelectorAll('.frame').length),
              images,
              curves: q('polyline.curve').length,
              waterfalls: q('.waterfall').map(w => ({ rows: w.querySelectorAll('tbody tr').length,
                prefetched: w.querySelectorAll('tr.prefetched').length,
                drawnBars: w.querySelectorAll('.bar').length
                  - [...w.querySelectorAll('.bar')].filter(b => b.getBoundingClientRect().width < 1).length })),
              sectionHeights: q('section').map(s => s.getBoundingClientRect().height),
              frameWidths: [...new Set(q('.frame').map(f => Math.round(f.getBoundingClientRect().width)))],
              frameHeights: q('.frame').filter(f => f.getBoundingClientRect().height < 10).length,
              requests: performance.getEntriesByType('resource').length,
              scripts: q('script').length,
              external: q('[src], [href]').length,
              fits: document.documentElement.scrollWidth <= innerWidth,
              ticks: q('th.tick').slice(0, 3).map(t => t.textContent),
            })
            """.utf8).write(to: snippet)
        let output = try CLI.run(["load", URL(fileURLWithPath: report).absoluteString, "--script", snippet.path,
                                  "--viewport", "1280x900"])
        #expect(output.status == 0, "\(output.stderr)")
        let load = try #require(CLI.loads(output, jsonl: false).first)
        let scripts = try #require(load["scripts"] as? [[String: Any]])
        return (load, try #require(scripts.first?["value"] as? [String: Any]))
    }

    @Test func aColdAndAPrefetchedLoadSideBySide() throws {
        let (root, nginx) = try Self.site()
        defer { nginx.stop(); try? FileManager.default.removeItem(at: root) }
        let report = root.appendingPathComponent("out/report.html").path
        try FileManager.default.createDirectory(atPath: root.appendingPathComponent("out").path,
                                                withIntermediateDirectories: true)
        let output = try CLI.run(["load", "--prefetch", nginx.url.appendingPathComponent("index.html").absoluteString,
                                  nginx.url.appendingPathComponent("article.html").absoluteString,
                                  "--report", report, "--report-interval", "50"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(CLI.schemaProblems(output.stdout, jsonl: false).isEmpty)
        let loads = try CLI.loads(output, jsonl: false)
        #expect(loads.count == 2 && loads.allSatisfy { $0["visualMetrics"] != nil && $0["filmstrip"] == nil })
        let (page, found) = try Self.inspect(report)
        #expect((page["errors"] as? [Any])?.isEmpty == true, "the report raised \(page["errors"] ?? "")")
        #expect(page["title"] as? String == "Headway report: 127.0.0.1")
        #expect(found["timingRows"] as? Int == 2)
        let filmRows = try #require(found["filmRows"] as? [Int])
        #expect(filmRows.count == 2 && filmRows.allSatisfy { $0 >= 2 && $0 == filmRows[0] })
        let images = try #require(found["images"] as? [[String: Any]])
        #expect(images.count >= 3)
        #expect(images.allSatisfy { $0["png"] as? Bool == true && $0["width"] as? Int == 1280 })
        #expect(found["curves"] as? Int == 2)
        let waterfalls = try #require(found["waterfalls"] as? [[String: Int]])
        #expect(waterfalls.count == 2)
        // The index's one request came from nginx; the article's document, style sheet and image
        // from the booster's cache.
        #expect(waterfalls.first?["prefetched"] == 0 && waterfalls.first?["rows"] ?? 0 >= 1)
        #expect(waterfalls.last?["prefetched"] ?? 0 >= 3, "\(waterfalls)")
        #expect(waterfalls.allSatisfy { $0["drawnBars"] == $0["rows"] })
        #expect((found["sectionHeights"] as? [Double])?.count == 4)
        #expect((found["sectionHeights"] as? [Double])?.allSatisfy { $0 > 40 } == true)
        #expect(found["frameWidths"] as? [Int] == [120] && found["frameHeights"] as? Int == 0)
        #expect(found["fits"] as? Bool == true, "the report is wider than a 1280-pixel window")
        #expect(found["ticks"] as? [String] == ["0 ms", "50 ms", "100 ms"])
        // Self-contained: nothing to fetch, no script.
        #expect(found["requests"] as? Int == 0 && found["scripts"] as? Int == 0 && found["external"] as? Int == 0)
    }

    @Test func badInputIsRefusedBeforeAnyLoad() throws {
        let url = "http://127.0.0.1:1/"
        let list = FileManager.default.temporaryDirectory.appendingPathComponent("report-list-\(getpid()).txt")
        try Data("\(url)\n".utf8).write(to: list)
        defer { try? FileManager.default.removeItem(at: list) }
        let cases: [([String], Int32, String)] = [
            (["--report", "/tmp/r.html", "--report-interval", "5"], 64,
             "--report-interval must be 16 to 60000 ms, not 5"),
            (["--report-interval", "100"], 64, "--report-interval needs --report"),
            (["--report", "/tmp/r.html", "--repeat", "21"], 64,
             "--report shows at most 20 loads side by side; this run has 21"),
            (["--report", "/tmp/r.html", "--repeat", "6", "--warm", url, url], 64, "this run has 36"),
            (["--urls", list.path, "--report", "/tmp/r.html"], 64, "cannot be combined with --urls"),
            (["--report", "/proc/version/r.html"], 73, "cannot write the report /proc/version/r.html: Not a directory"),
            (["--har", "/tmp/same.html", "--report", "/tmp/./same.html"], 64,
             "--har and --report name the same file: /tmp/same.html"),
        ]
        for (arguments, status, message) in cases {
            let output = try CLI.run(["load"] + (arguments.contains("--urls") ? [] : [url]) + arguments)
            #expect(output.status == status, "\(arguments): \(output.stderr)")
            #expect(output.stderr.contains(message), "\(arguments): \(output.stderr)")
            #expect(output.stderr.split(separator: "\n").count == 1, "\(arguments): \(output.stderr)")
        }
    }
}
