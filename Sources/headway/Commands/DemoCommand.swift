import ArgumentParser
import Foundation
import Headway

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Serve the bundled demo site at 5 Mbit/s with 50 ms latency, load the index and an article, and print a timing table.",
        discussion: "The site (an index and 10 articles of about 1 MB each) is written to a temporary directory and removed afterwards."
    )

    @Option(help: "Emulated bandwidth per connection (default: 5mbit).")
    var bandwidth: String = "5mbit"

    @Option(help: "Emulated latency before each first byte (default: 50ms).")
    var latency: String = "50ms"

    @Option(help: "Which article to load after the index, 1 to \(DemoSite.articleCount) (default: 3).")
    var article: Int = 3

    @Option(name: .customLong("write-site"), help: "Only write the demo site into this directory (for `headway serve`) and exit.")
    var writeSite: String?

    static let snippet = Snippet(file: "demo-snippet.js", source: """
        ({ title: document.title, links: document.links.length, images: document.images.length,
           scriptRan: document.body.dataset.ready === "1" })
        """)

    func validate() throws {
        guard (1...DemoSite.articleCount).contains(article) else {
            throw ValidationError("--article must be between 1 and \(DemoSite.articleCount)")
        }
    }

    func run() async throws {
        let conditions: NetworkConditions
        do {
            conditions = NetworkConditions(bytesPerSecond: try NetworkConditions.parseBandwidth(bandwidth),
                                           latency: try NetworkConditions.parseLatency(latency))
        } catch let error as HeadwayError {
            ExitStatus.report(error.description)
            throw ExitCode(ExitStatus.usage.rawValue)
        }
        if let writeSite {
            let files = try DemoSite.write(to: URL(fileURLWithPath: writeSite))
            note("wrote the demo site: \(files.count) files in \(writeSite)")
            return
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("headway-demo-\(getpid())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = try DemoSite.write(to: directory)
        note("wrote the demo site: \(files.count) files in \(directory.path)")
        let outcome = await DemoRunner.run(root: directory, conditions: conditions, article: article, snippet: Self.snippet)
        if let error = outcome.error {
            ExitStatus.report(error.description)
            throw ExitCode(ExitStatus(error).rawValue)
        }
        print(outcome.table)
    }

    private func note(_ text: String) {
        FileHandle.standardError.write(Data("headway: \(text)\n".utf8))
    }
}

@EngineActor
enum DemoRunner {
    struct Outcome: Sendable {
        var table = ""
        var error: HeadwayError?
    }

    static func run(root: URL, conditions: NetworkConditions, article: Int, snippet: Snippet) async -> Outcome {
        do {
            let server = try HTTPServer(root: root, conditions: conditions)
            defer { server.stop() }
            status("serving it at \(server.url.absoluteString) (\(conditions))")
            let browser = try Browser()
            defer { browser.close() }
            let page = try browser.newPage()
            var rows: [(String, LoadResult, SnippetResult, Int)] = []
            for path in ["index.html", DemoSite.articlePath(article)] {
                let url = server.url.appendingPathComponent(path)
                status("loading \(url.absoluteString)")
                let before = server.requests.count
                let result = try await page.load(url, timeout: 120)
                let value = await page.run(snippet, timeout: 10)
                if let error = value.error { throw HeadwayError(.scriptError, "the demo snippet failed: \(error)") }
                rows.append((path, result, value, server.requests.count - before))
            }
            return Outcome(table: table(rows, server: server, conditions: conditions))
        } catch {
            return Outcome(error: error as? HeadwayError ?? HeadwayError(.engine, "\(error)"))
        }
    }

    private static func status(_ text: String) {
        FileHandle.standardError.write(Data("headway: \(text)\n".utf8))
    }

    private static func table(_ rows: [(String, LoadResult, SnippetResult, Int)], server: HTTPServer, conditions: NetworkConditions) -> String {
        let columns = ["page", "status", "committed", "DOMContentLoaded", "load", "FCP", "resources", "requests"]
        var lines = ["Headway demo: \(conditions), one page, cold cache", ""]
        lines.append(columns.map { TextReport.pad($0, $0 == "page" ? 26 : 17) }.joined())
        for (path, result, _, requests) in rows {
            let t = result.timing
            let cells = [path, result.status.map(String.init) ?? "-", TextReport.ms(t.committed),
                         TextReport.ms(t.domContentLoadedEventEnd), TextReport.ms(t.loadEventEnd),
                         t.firstContentfulPaint.map(TextReport.ms) ?? "unavailable", "\(result.resources.count)",
                         "\(requests)"]
            lines.append(cells.enumerated().map { TextReport.pad($1, $0 == 0 ? 26 : 17) }.joined())
        }
        lines.append("")
        for (path, _, value, _) in rows {
            lines.append("snippet on \(path): \(value.value?.description ?? "undefined")")
        }
        lines.append("committed: Headway's clock from the load request; DOMContentLoaded, load, FCP: Navigation/Paint Timing.")
        return lines.joined(separator: "\n")
    }
}
