import Foundation
import Headway

// One load of the `load` command: the page load, its waits and snippets, and its report.
@EngineActor
extension LoadRunner {
    // Loads one URL (the `position`th of the run, from 1) and runs the snippets, delivering the
    // report. Returns the result, or nil when the load failed.
    func loadOnce(_ url: URL, run: Int?, page: Page, position: Int? = nil, warm: Bool = false,
                  into outcome: inout Outcome) async -> (Bool, LoadResult?) {
        var (report, failures) = await loadReport(url, run: run, page: page, position: position, warm: warm)
        report.warm = warm
        for failure in failures { outcome.failures.record(failure) }
        deliver(report, into: &outcome)
        return (report.error == nil, report.result)
    }

    // Loads one URL and runs the snippets; reports each failure on stderr as it happens.
    func loadReport(_ url: URL, run: Int?, page: Page, position: Int? = nil,
                    warm: Bool = false) async -> (LoadReport, [ExitStatus]) {
        var report = LoadReport(url: url.absoluteString, run: run)
        var failures: [ExitStatus] = []
        do {
            let started = ContinuousClock.now
            var result = try await page.load(url, until: waits.until == .domcontentloaded ? .domContentLoaded : .load,
                                             timeout: timeout, filmstrip: filmstrip)
            report.filmstrip = await writeFilmstrip(of: result, url: url, folder: (position, run, warm),
                                                    failures: &failures)
            // With --report they stay until the run delivers the report (`deliver`).
            if reportInterval == nil { result.filmstrip = nil }
            report.result = result
            if let status = result.status, status >= 400 {
                Console.report("\(url.absoluteString) answered HTTP \(status)")
                failures.append(.httpError)
            }
            // The waits share the load's --timeout, measured on the monotonic clock.
            let left = { max(.zero, timeout - started.duration(to: .now)) }
            try await waits.wait(on: page, left: left)
            // The HAR holds what the waits saw load too.
            if configuration.recordsResources, waits.any {
                report.result?.resourceEntries = try await page.resourceEntries()
            }
        } catch {
            let failure = error as? HeadwayError ?? HeadwayError(.loadFailed, "\(error)")
            report.error = failure
            report.console = page.console
            report.errors = page.errors
            report.consoleTotal = page.consoleTotal
            report.errorsTotal = page.errorsTotal
            report.dialogs = page.dialogs
            Console.report(failure.description)
            return (report, [ExitStatus(failure)])
        }
        for snippet in snippets + (position.flatMap { snippetsFor[$0] } ?? []) {
            // `run` throws only when the task is cancelled, which the CLI never does.
            guard let result = try? await page.run(snippet, timeout: scriptTimeout, navigationTimeout: timeout) else {
                break
            }
            report.scripts.append(result)
            if let error = result.error {
                Console.report("script \(error.description)")
                failures.append(.scriptFailed)
            }
            if let url = result.navigatedTo, let status = result.navigatedStatus, status >= 400 {
                Console.report("\(url.absoluteString), where the script \(snippet.file) navigated, "
                               + "answered HTTP \(status)")
                failures.append(.httpError)
            }
        }
        report.console = page.console
        report.errors = page.errors
        report.consoleTotal = page.consoleTotal
        report.errorsTotal = page.errorsTotal
        report.dialogs = page.dialogs
        return (report, failures)
    }

    // Writes the load's frames to --filmstrip's directory (the run's reports stay until it ends,
    // their frames do not), warns of a recording that ended early, and gives the folder written.
    private func writeFilmstrip(of result: LoadResult, url: URL, folder: (Int?, Int?, Bool),
                                failures: inout [ExitStatus]) async -> String? {
        var written: String?
        if let frames = result.filmstrip, let directory = filmstripDirectory {
            let path = filmstripPerLoad
                ? directory + "/" + Self.filmstripFolder(folder.0, folder.1, folder.2) : directory
            do {
                try filmstripBudget.check(frames, of: url)
                try await Task.detached { try frames.write(to: path) }.value
                filmstripBudget.take(frames)
                written = path
            } catch let error as HeadwayError {
                Console.report(error.description)
                failures.append(ExitStatus(error))
            } catch {
                Console.report("\(error)")
                failures.append(.internalError)
            }
        }
        switch (filmstrip, result.visualMetrics?.recordingEnded) {
        case (.some, nil):
            Console.warn("no filmstrip of \(url.absoluteString): WebKit gave no frame of the page")
        case (.some(let options), .bound):
            Console.warn("the filmstrip of \(url.absoluteString) ended at its bound: the view still changed "
                         + "\(options.afterLoadAtMost.components.seconds) s after the load")
        case (.some(let options), .frameLimit):
            Console.warn("the filmstrip of \(url.absoluteString) ended at its frame limit (\(options.maxFrames) frames "
                         + "or \(options.maxBytes >> 20) MiB of pixels): its last frame is the view then")
        default: break
        }
        return written
    }

    // A load's own folder in --filmstrip's directory: load-N[-run-R][-warm].
    nonisolated static func filmstripFolder(_ position: Int?, _ run: Int?, _ warm: Bool) -> String {
        "load-\(position ?? 1)" + (run.map { "-run-\($0)" } ?? "") + (warm ? "-warm" : "")
    }
}
