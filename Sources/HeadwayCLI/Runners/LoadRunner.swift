import Foundation
import Headway

// Runs the `load` command's work on the engine: loads, snippets, screenshot, repeats. The
// browser is `configuration`, as the command built and checked it (booster, dialogs, memory
// limit and --har's recorded resources included); the rest is the run's own.
struct LoadRunner: Sendable {
    let configuration: Browser.Configuration
    let urls: URLFeed
    let snippets: [Snippet]
    // --script-for: each URL argument's own snippets, by its 1-based position, run after `snippets`.
    var snippetsFor: [Int: [Snippet]] = [:]
    let timeout: Duration
    let scriptTimeout: Duration
    var repeatCount = 1
    // --warm: after each URL's cold runs, as many warm ones in the last cold run's page.
    var warm = false
    var screenshot: String?
    // --filmstrip / --visual-metrics: each load records frames; with a directory they are
    // written there (in a subdirectory of each load's own with `filmstripPerLoad`).
    var filmstrip: FilmstripOptions?
    var filmstripDirectory: String?
    var filmstripPerLoad = false
    let filmstripBudget = FilmstripBudget()
    // --report's interval: each load's result is kept for the report, with the frames it shows.
    var reportInterval: Int?
    var showProgress = false
    var prefetchSettle: Duration = .seconds(30)
    // With the booster, the document fetched while the page's web process starts.
    var preload: URL?
    // When a load is done (--wait-until), and what it waits for then (--wait-for…).
    var waits = PageWaits()
    // Go on after a failed load (batch mode).
    var keepGoing = false
    // Pages loading at once (batch mode only).
    var jobs = 1
    // Called with each load's report as soon as it is complete (jsonl streaming); returns
    // false when the report could not be written, which ends the run.
    var onReport: (@Sendable (LoadReport) -> Bool)?

    struct Outcome: Sendable {
        var reports: [LoadReport] = []
        var summaries: [TimingSummary] = []
        var screenshot: (path: String, shot: Screenshot)?
        // Every load's result, in completion order, when the run writes a HAR file.
        var harLoads: [LoadResult] = []
        // With --report, every load that gave a result, with the frames the report shows.
        var reportLoads: [HTMLReport.Load] = []
        var reportFrameBytes = 0
        var prefetch: PrefetchRunStats?
        var failures = FailureLog()
        // A report could not be written: the run stopped early.
        var stopped = false

        var json: OrderedJSON {
            var pairs: [(String, OrderedJSON)] = [("loads", .array(reports.map(\.json)))]
            if !summaries.isEmpty { pairs.append(("summary", .array(summaries.map(\.json)))) }
            if let screenshot {
                pairs.append(("screenshot", .object([("file", .string(screenshot.path)),
                                                     ("width", .number(Double(screenshot.shot.width))),
                                                     ("height", .number(Double(screenshot.shot.height)))])))
            }
            if let prefetch { pairs.append(("prefetch", LoadReport.encoded(prefetch))) }
            return .object(pairs)
        }

        // What jsonl prints after the load lines: the summary and prefetch figures, if any.
        var jsonlTail: OrderedJSON? {
            guard case .object(let pairs) = json else { return nil }
            let rest = pairs.filter { $0.0 != "loads" }
            return rest.isEmpty ? nil : .object(rest)
        }

        var text: String {
            (reports.map(TextReport.render) + summaries.map(TextReport.render)).joined(separator: "\n")
        }
    }

}

@EngineActor
extension LoadRunner {
    func run() async -> Outcome {
        var outcome = Outcome()
        let browser: Browser
        do {
            browser = try Browser(configuration: configuration)
        } catch {
            fail(&outcome, error as? HeadwayError ?? HeadwayError(.engine, "\(error)"))
            return outcome
        }
        defer { browser.close() }
        if let preload { try? browser.preload(preload) }
        let progress = Progress(total: urls.knownCount.map { $0 * repeatCount * (warm ? 2 : 1) },
                                enabled: showProgress)
        defer { progress.finish() }
        do {
            if jobs > 1 {
                await BatchRunner.run(self, browser: browser, progress: progress, into: &outcome)
            } else if repeatCount == 1 && !warm {
                let page = try browser.newPage()
                var lastLoaded = false
                var position = 0
                while !outcome.stopped, let item = await urls.next() {
                    position += 1
                    guard case .url(let url) = item else {
                        invalid(item, into: &outcome)
                        progress.step(nil)
                        lastLoaded = false
                        continue
                    }
                    if lastLoaded, configuration.booster != nil {
                        // Let the last prefetch settle so this load's result is repeatable.
                        await browser.settlePrefetch(timeout: prefetchSettle)
                    }
                    progress.step(url)
                    let (ok, _) = await loadOnce(url, run: nil, page: page, position: position, into: &outcome)
                    lastLoaded = ok
                    if !ok && !keepGoing { break }
                }
                if lastLoaded, !outcome.stopped, let path = screenshot {
                    await takeScreenshot(page, path: path, into: &outcome)
                }
                if let port = configuration.inspectorPort, !outcome.stopped {
                    Interrupt.catchSignals()
                    StandardStreams.writeError("headway: the inspector is on http://127.0.0.1:\(port)/ (open it in a "
                        + "browser); "
                                               + "press Ctrl-C to end\n")
                    await Interrupt.wait()
                }
            } else {
                var position = 0
                outer: while !outcome.stopped, let item = await urls.next() {
                    position += 1
                    guard case .url(let url) = item else {
                        invalid(item, into: &outcome)
                        continue
                    }
                    var results: [LoadResult] = []
                    var lastPage: Page?
                    defer { lastPage?.close() }
                    for run in 1...repeatCount {
                        progress.step(url)
                        lastPage?.close()
                        await browser.clearWebsiteData()
                        let page = try browser.newPage()
                        lastPage = page
                        let (ok, result) = await loadOnce(url, run: run, page: page, position: position,
                                                          into: &outcome)
                        if let result { results.append(result) }
                        if outcome.stopped || (!ok && !keepGoing) { break outer }
                    }
                    outcome.summaries.append(TimingSummary(url: url, results: results))
                    guard warm, let page = lastPage else { continue }
                    // Warm: the URL again in the last cold run's page, its caches and web process kept.
                    var warmResults: [LoadResult] = []
                    for run in 1...repeatCount {
                        progress.step(url)
                        let (ok, result) = await loadOnce(url, run: run, page: page, position: position, warm: true,
                                                          into: &outcome)
                        if let result { warmResults.append(result) }
                        if outcome.stopped || (!ok && !keepGoing) { break outer }
                    }
                    var summary = TimingSummary(url: url, results: warmResults)
                    summary.warm = true
                    outcome.summaries.append(summary)
                }
            }
        } catch {
            fail(&outcome, error as? HeadwayError ?? HeadwayError(.engine, "\(error)"))
        }
        outcome.prefetch = browser.prefetchStats
        // Nothing is lost at exit: the cache directory's writes run in the background.
        await browser.flushCacheDirectory()
        return outcome
    }

    // Hands a finished report to the stream (jsonl) or keeps it for the document.
    func deliver(_ report: LoadReport, into outcome: inout Outcome) {
        var report = report
        if let reportInterval, let result = report.result {
            outcome.reportLoads.append(HTMLReport.keeping(report.label, result, interval: reportInterval,
                                                          bytes: &outcome.reportFrameBytes))
            report.result?.filmstrip = nil
        }
        if configuration.recordsResources, let result = report.result { outcome.harLoads.append(result) }
        if let onReport {
            if !onReport(report) { outcome.stopped = true }
        } else {
            outcome.reports.append(report)
        }
    }

    func invalid(_ item: URLList.Item, into outcome: inout Outcome) {
        guard case .invalid(let line, let error) = item else { return }
        var report = LoadReport(url: line, run: nil)
        report.error = error
        Console.report(error.description)
        outcome.failures.record(ExitStatus(error))
        deliver(report, into: &outcome)
    }

    private func takeScreenshot(_ page: Page, path: String, into outcome: inout Outcome) async {
        do {
            let shot = try await page.screenshot()
            try OutputFile.write(shot.pngData, to: path, what: "the screenshot")
            if shot.isBlank { Console.warn("the screenshot \(path) is blank (a single colour)") }
            outcome.screenshot = (path, shot)
        } catch {
            fail(&outcome, error as? HeadwayError ?? HeadwayError(.engine, "\(error)"))
        }
    }

    private func fail(_ outcome: inout Outcome, _ error: HeadwayError) {
        Console.report(error.description)
        outcome.failures.record(ExitStatus(error))
    }
}
