import Foundation
import Headway

/// Loads a URL list with several pages at once (`--jobs`): each page takes the next URL when it
/// is done, and each report is delivered as soon as its load completes.
@EngineActor
enum BatchRunner {
    private final class Queue {
        var next = 0
        var results: [(LoadReport, [ExitStatus])] = []
    }

    static func run(_ inputs: LoadRunner.Inputs, browser: Browser, progress: Progress,
                    into outcome: inout LoadRunner.Outcome) async {
        let queue = Queue()
        var workers: [Task<Void, Never>] = []
        for _ in 0..<inputs.jobs {
            guard let page = try? browser.newPage() else { break }
            workers.append(Task { @EngineActor in
                defer { page.close() }
                while queue.next < inputs.urls.count {
                    let item = inputs.urls[queue.next]
                    queue.next += 1
                    switch item {
                    case .url(let url):
                        progress.step(url)
                        let (report, failures) = await LoadRunner.loadReport(url, run: nil, page: page, inputs: inputs)
                        queue.results.append((report, failures))
                        if let onReport = inputs.onReport { onReport(report) }
                    case .invalid(let line, let error):
                        progress.step(nil)
                        var report = LoadReport(url: line, run: nil)
                        report.error = error
                        ExitStatus.report(error.description)
                        queue.results.append((report, [ExitStatus(error)]))
                        if let onReport = inputs.onReport { onReport(report) }
                    }
                }
            })
        }
        for worker in workers { await worker.value }
        for (report, failures) in queue.results {
            for failure in failures { outcome.failures.record(failure) }
            if inputs.onReport == nil { outcome.reports.append(report) }
        }
        if workers.isEmpty {
            ExitStatus.report("could not open a page for the batch")
            outcome.failures.record(.engineUnavailable)
        }
    }
}
