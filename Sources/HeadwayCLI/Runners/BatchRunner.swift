import Foundation
import Headway

// Loads a URL list with several pages at once (`--jobs`): each page takes the next URL when it
// is done, and each report is delivered as soon as its load completes.
@EngineActor
enum BatchRunner {
    private final class Shared {
        var failures = FailureLog()
        var reports: [LoadReport] = []
        var harLoads: [LoadResult] = []
        var stopped = false
    }

    static func run(_ runner: LoadRunner, browser: Browser, progress: Progress,
                    into outcome: inout LoadRunner.Outcome) async {
        let shared = Shared()
        var workers: [Task<Void, Never>] = []
        for _ in 0..<runner.jobs {
            guard let page = try? browser.newPage() else { break }
            workers.append(Task { @EngineActor in
                defer { page.close() }
                while !shared.stopped, let item = await runner.urls.next() {
                    // Another job may have stopped the run while this one waited for a line.
                    if shared.stopped { break }
                    var report: LoadReport
                    switch item {
                    case .url(let url):
                        progress.step(url)
                        let (loaded, failures) = await runner.loadReport(url, run: nil, page: page)
                        report = loaded
                        for failure in failures { shared.failures.record(failure) }
                    case .invalid(let line, let error):
                        progress.step(nil)
                        report = LoadReport(url: line, run: nil)
                        report.error = error
                        Console.report(error.description)
                        shared.failures.record(ExitStatus(error))
                    }
                    if shared.stopped { break }
                    if runner.configuration.recordsResources, let result = report.result {
                        shared.harLoads.append(result)
                    }
                    if let onReport = runner.onReport {
                        if !onReport(report) { shared.stopped = true }
                    } else {
                        shared.reports.append(report)
                    }
                }
            })
        }
        for worker in workers { await worker.value }
        outcome.failures.merge(shared.failures)
        outcome.reports += shared.reports
        outcome.harLoads += shared.harLoads
        outcome.stopped = shared.stopped
        if workers.isEmpty {
            Console.report("could not open a page for the batch")
            outcome.failures.record(.engineUnavailable)
        }
    }
}
