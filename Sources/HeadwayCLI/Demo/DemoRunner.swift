import Foundation
import Headway

// The demo's loads: the article cold (server-emulated and browser-emulated), after the index,
// prefetched from it, and prerendered from it; and the table of their figures.
@EngineActor
enum DemoRunner {
    struct Outcome: Sendable {
        var table = ""
        var error: HeadwayError?
        // Each load, with its frames and requests when recording (for --report).
        var loads: [HTMLReport.Load] = []
    }

    struct Row {
        var label: String
        var result: LoadResult
        var snippet: SnippetResult
        var requests: Int
    }

    // The loads a run makes (the rows of its table).
    nonisolated static let loadCount = 10

    // Loads the index and an article cold, then the same in a browser with the booster on
    // (the article after the prefetch from the index settled), and tabulates both. With
    // `reportInterval`, each load records its frames and requests, for the report.
    static func run(root: URL, conditions: NetworkConditions, article: Int, snippet: Snippet,
                    reportInterval: Int? = nil) async -> Outcome {
        let recording = reportInterval != nil
        do {
            let server = try HTTPServer(root: root, conditions: conditions)
            defer { server.stop() }
            status("serving it at \(server.url.absoluteString) (\(conditions))")
            // The same site from a server that emulates nothing, for the browser's own emulation.
            let plain = try HTTPServer(root: root)
            defer { plain.stop() }
            let index = server.url.appendingPathComponent("index.html")
            let articleURL = server.url.appendingPathComponent(DemoSite.articlePath(article))
            var rows: [Row] = []
            let articleName = DemoSite.articlePath(article)
            // 1: the article alone in a fresh browser (cold); 2: the same from a plain server, the
            // browser emulating the network; 3: index then article, booster off; 4: index then
            // article, booster on, after the prefetch from the index settled; 5: the same with
            // the likeliest next pages prerendered too; 6 and 7: the article in two browsers (two
            // runs) sharing a cache directory.
            let plainArticle = plain.url.appendingPathComponent(DemoSite.articlePath(article))
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("headway-demo-cache-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let phases: [(urls: [URL], boosted: Bool, prerender: Int, emulated: Bool, disk: Bool, label: String)] = [
                ([articleURL], false, 0, false, false, "cold"),
                ([plainArticle], false, 0, true, false, "cold, browser-emulated"),
                ([index, articleURL], false, 0, false, false, "after index, no booster"),
                ([index, articleURL], true, 0, false, false, "after index, prefetched"),
                ([index, articleURL], true, article, false, false, "after index, prerendered"),
                ([articleURL], true, 0, false, true, "first run, disk cache"),
                ([articleURL], true, 0, false, true, "second run, disk cache"),
            ]
            for phase in phases {
                var configuration = Browser.Configuration()
                if phase.boosted {
                    var booster = BoosterConfiguration()
                    // The demo opens whichever article it is asked for: every link, not the likeliest.
                    booster.eagerness = .eager
                    booster.prerender = phase.prerender
                    if phase.disk { booster.cacheDirectory = directory }
                    configuration.booster = booster
                }
                if phase.emulated { configuration.networkConditions = conditions }
                configuration.recordsResources = recording
                let counted = phase.emulated ? plain : server
                let browser = try Browser(configuration: configuration)
                defer { browser.close() }
                let page = try browser.newPage()
                let counter = RequestCounter(server: counted)
                page.delegate = counter
                for url in phase.urls {
                    status("loading \(url.absoluteString)\(phase.boosted ? " with the booster" : "")")
                    let before = counted.requests.count
                    counter.atLoad = nil
                    let result = try await page.load(url, timeout: .seconds(120),
                                                     filmstrip: recording ? FilmstripOptions() : nil)
                    // Requests of that load only, up to its result: the snippet's wait for a late
                    // navigation can see the page icon's request go by, and the booster goes on
                    // while a recording waits for the view to settle.
                    let requests = (counter.atLoad ?? counted.requests.count) - before
                    let value = try await page.run(snippet, timeout: .seconds(10))
                    if let error = value.error { throw HeadwayError(.scriptError, "the demo snippet failed: \(error)") }
                    let booster = phase.prerender > 0 ? ", booster + prerender" : phase.boosted ? ", booster on" : ""
                    let label = url == index ? "index.html\(booster)" : "\(articleName), \(phase.label)"
                    rows.append(Row(label: label, result: result, snippet: value, requests: requests))
                    if phase.boosted, url == index {
                        status("prefetching what the index links to")
                        await browser.settlePrefetch(timeout: .seconds(120))
                        if let stats = browser.prefetchStats {
                            status("prefetched \(stats.pagesPrefetched) pages and \(stats.resourcesPrefetched) "
                                + "resources, \(TextReport.bytes(stats.bytesPrefetched))")
                        }
                    }
                }
                // The next browser is the next run: it finds every response written, and none of
                // this one's prefetches still on their way.
                if phase.disk {
                    await browser.settlePrefetch(timeout: .seconds(120))
                    await browser.flushCacheDirectory()
                }
            }
            var bytes = 0
            let loads = reportInterval.map { interval in
                rows.map { HTMLReport.keeping($0.label, $0.result, interval: interval, bytes: &bytes) }
            }
            return Outcome(table: table(rows, conditions: conditions), loads: loads ?? [])
        } catch {
            return Outcome(error: error as? HeadwayError ?? HeadwayError(.engine, "\(error)"))
        }
    }

    private static func status(_ text: String) {
        StandardStreams.writeError("headway: \(text)\n")
    }

    private static func table(_ rows: [Row], conditions: NetworkConditions) -> String {
        let widths = [50, 8, 12, 18, 12, 12, 10]
        func line(_ cells: [String]) -> String {
            zip(cells, widths).map { TextReport.pad($0, $1) }.joined().trimmingCharacters(in: .whitespaces)
        }
        var lines = ["Headway demo: \(conditions)", ""]
        lines.append(line(["load", "status", "committed", "DOMContentLoaded", "load", "FCP", "requests"]))
        for row in rows {
            let t = row.result.timing
            lines.append(line([row.label, row.result.status.map(String.init) ?? "-", TextReport.ms(t.committed),
                               TextReport.ms(t.domContentLoadedEventEnd), TextReport.ms(t.loadEventEnd),
                               t.firstContentfulPaint.map(TextReport.ms) ?? "unavailable", "\(row.requests)"]))
        }
        let articles = rows.filter { !$0.label.hasPrefix("index") }
        let cold = articles.first
        let coldLoad = cold?.result.timing.loadEventEnd ?? 0
        if let emulated = articles.first(where: { $0.label.hasSuffix("browser-emulated") }), coldLoad > 0 {
            lines.append("")
            lines.append(String(format: "Emulated by the browser against a plain server, the article's load event "
                                + "came at %.0f%% of the server-emulated one's.",
                                emulated.result.timing.loadEventEnd / coldLoad * 100))
        }
        if let boosted = articles.first(where: { $0.label.hasSuffix("prefetched") }), coldLoad > 0 {
            let ratio = boosted.result.timing.loadEventEnd / coldLoad
            lines.append("")
            lines.append(String(format: "The prefetched article's load event came at %.1f%% of the cold one's "
                                + "(%.0f%% faster).", ratio * 100, (1 - ratio) * 100))
        }
        if let cold, let shown = articles.first(where: { $0.result.prefetch?.prerendered == true }) {
            lines.append(String(format: "The prerendered article was shown %.1f ms after its load request (cold: "
                                + "the load ended %.0f ms after it); its load and FCP columns are those of its "
                                + "hidden load.", shown.result.timing.finished.milliseconds,
                                cold.result.timing.finished.milliseconds))
        }
        if let second = articles.first(where: { $0.label.hasSuffix("second run, disk cache") }), coldLoad > 0 {
            lines.append(String(format: "The second run made %d requests and its load event came at %.1f%% of the "
                                + "cold one's.", second.requests, second.result.timing.loadEventEnd / coldLoad * 100))
        }
        lines.append("")
        var shown = Set<String>()
        for row in rows {
            let name = row.label.components(separatedBy: ",")[0]
            if shown.insert(name).inserted {
                lines.append("snippet on \(name): \(row.snippet.value?.description ?? "undefined")")
            }
        }
        lines.append("committed: Headway's clock from the load request; DOMContentLoaded, load, FCP: "
                     + "Navigation/Paint Timing;")
        lines.append("requests: requests the server answered during that load, up to its result.")
        return lines.joined(separator: "\n")
    }
}

// How many requests the server had answered when a load's result came (its load event), before
// a filmstrip's recording waits for the view to settle.
@EngineActor
private final class RequestCounter: NavigationDelegate {
    let server: HTTPServer
    var atLoad: Int?

    init(server: HTTPServer) {
        self.server = server
    }

    func page(_ page: Page, didLoad result: LoadResult) {
        if atLoad == nil { atLoad = server.requests.count }
    }
}
