import Foundation
import Headway

// Runs the `load` command's work on the engine: loads, snippets, screenshot, repeats.
@EngineActor
enum LoadRunner {
    struct Inputs: Sendable {
        var urls: URLFeed
        var snippets: [Snippet]
        var timeout: Duration
        var scriptTimeout: Duration
        var repeatCount: Int
        var screenshot: String?
        var showProgress: Bool
        var booster: BoosterConfiguration?
        var prefetchSettle: Duration = .seconds(30)
        // With the booster, the document fetched while the page's web process starts.
        var preload: URL?
        // The browser's page options; `run` adds the booster, dialogs and memory limit.
        var browser = Browser.Configuration()
        var dialogs: DialogPolicy = .dismiss
        // Megabytes a page's web process may use before it is killed.
        var memoryLimit: Int?
        // After each load, wait for an element matching this selector.
        var waitFor: String?
        // After each load, wait until the network is idle.
        var waitForNetworkIdle = false
        // A load is done at DOMContentLoaded.
        var endsAtDOMContentLoaded = false
        // Keep every load's result, with its requests, for a HAR file.
        var keepsHAR = false
        // Keep the last page open for the inspector until Ctrl-C.
        var inspectorPort: Int?
        // Go on after a failed load (batch mode).
        var keepGoing = false
        // Pages loading at once (batch mode only).
        var jobs = 1
        // Called with each load's report as soon as it is complete (jsonl streaming); returns
        // false when the report could not be written, which ends the run.
        var onReport: (@Sendable (LoadReport) -> Bool)?
    }

    struct Outcome: Sendable {
        var reports: [LoadReport] = []
        var summaries: [TimingSummary] = []
        var screenshot: (path: String, shot: Screenshot)?
        // Every load's result, in completion order, when the run writes a HAR file.
        var harLoads: [LoadResult] = []
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

    static func run(_ inputs: Inputs) async -> Outcome {
        var outcome = Outcome()
        let browser: Browser
        do {
            var configuration = inputs.browser
            configuration.recordsResources = inputs.keepsHAR
            configuration.booster = inputs.booster
            configuration.dialogs = inputs.dialogs
            configuration.webProcessMemoryLimit = inputs.memoryLimit
            browser = try Browser(configuration: configuration)
        } catch {
            fail(&outcome, error as? HeadwayError ?? HeadwayError(.engine, "\(error)"))
            return outcome
        }
        defer { browser.close() }
        if let url = inputs.preload { try? browser.preload(url) }
        let progress = Progress(total: inputs.urls.knownCount.map { $0 * inputs.repeatCount }, enabled: inputs.showProgress)
        defer { progress.finish() }
        do {
            if inputs.jobs > 1 {
                await BatchRunner.run(inputs, browser: browser, progress: progress, into: &outcome)
            } else if inputs.repeatCount == 1 {
                let page = try browser.newPage()
                var lastLoaded = false
                while !outcome.stopped, let item = await inputs.urls.next() {
                    guard case .url(let url) = item else {
                        invalid(item, into: &outcome, inputs: inputs)
                        progress.step(nil)
                        lastLoaded = false
                        continue
                    }
                    if lastLoaded, inputs.booster != nil {
                        // Let the last prefetch settle so this load's result is repeatable.
                        await browser.settlePrefetch(timeout: inputs.prefetchSettle)
                    }
                    progress.step(url)
                    let (ok, _) = await loadOnce(url, run: nil, page: page, inputs: inputs, into: &outcome)
                    lastLoaded = ok
                    if !ok && !inputs.keepGoing { break }
                }
                if lastLoaded, !outcome.stopped, let path = inputs.screenshot {
                    await takeScreenshot(page, path: path, into: &outcome)
                }
                if let port = inputs.inspectorPort, !outcome.stopped {
                    Interrupt.catchSignals()
                    StandardStreams.writeError("headway: the inspector is on http://127.0.0.1:\(port)/ (open it in a browser); press Ctrl-C to end\n")
                    await Interrupt.wait()
                }
            } else {
                outer: while !outcome.stopped, let item = await inputs.urls.next() {
                    guard case .url(let url) = item else {
                        invalid(item, into: &outcome, inputs: inputs)
                        continue
                    }
                    var results: [LoadResult] = []
                    for run in 1...inputs.repeatCount {
                        progress.step(url)
                        await browser.clearWebsiteData()
                        let page = try browser.newPage()
                        defer { page.close() }
                        let (ok, result) = await loadOnce(url, run: run, page: page, inputs: inputs, into: &outcome)
                        if let result { results.append(result) }
                        if outcome.stopped || (!ok && !inputs.keepGoing) { break outer }
                    }
                    outcome.summaries.append(TimingSummary(url: url, results: results))
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
    static func deliver(_ report: LoadReport, into outcome: inout Outcome, inputs: Inputs) {
        if inputs.keepsHAR, let result = report.result { outcome.harLoads.append(result) }
        if let onReport = inputs.onReport {
            if !onReport(report) { outcome.stopped = true }
        } else {
            outcome.reports.append(report)
        }
    }

    static func invalid(_ item: URLList.Item, into outcome: inout Outcome, inputs: Inputs) {
        guard case .invalid(let line, let error) = item else { return }
        var report = LoadReport(url: line, run: nil)
        report.error = error
        ExitStatus.report(error.description)
        outcome.failures.record(ExitStatus(error))
        deliver(report, into: &outcome, inputs: inputs)
    }

    private static func takeScreenshot(_ page: Page, path: String, into outcome: inout Outcome) async {
        do {
            let shot = try await page.screenshot(to: path)
            if shot.isBlank { ExitStatus.warn("the screenshot \(path) is blank (a single colour)") }
            outcome.screenshot = (path, shot)
        } catch {
            fail(&outcome, error as? HeadwayError ?? HeadwayError(.engine, "\(error)"))
        }
    }

    private static func fail(_ outcome: inout Outcome, _ error: HeadwayError) {
        ExitStatus.report(error.description)
        outcome.failures.record(ExitStatus(error))
    }
}
