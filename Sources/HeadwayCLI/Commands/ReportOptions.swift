import ArgumentParser
import Foundation
import Headway

// --report of `load` and `demo`: the run's loads side by side in one HTML file (`HTMLReport`).
struct ReportOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Write the run's loads side by side as one self-contained HTML file: the timing table, the filmstrip, the " +
        "visual progress curve and each load's waterfall (the booster's requests marked). Records each load's " +
        "frames and requests; at most \(HTMLReport.maxLoads) loads.",
        valueName: "FILE"))
    var report: String?

    @Option(name: .customLong("report-interval"), parsing: .unconditional, help: ArgumentHelp(
        "With --report, the filmstrip's interval in ms, \(HTMLReport.intervals.lowerBound) to " +
        "\(HTMLReport.intervals.upperBound) (default \(HTMLReport.defaultInterval)).",
        valueName: "MS"))
    var interval: Int?

    var reportInterval: Int { interval ?? HTMLReport.defaultInterval }

    // Checks the values and the run's size before any page loads; `loads` is nil for a list.
    func check(loads: Int?) throws {
        func refuse(_ message: String) -> HeadwayError { HeadwayError(.invalidArgument, message) }
        if let interval {
            guard report != nil else { throw refuse("--report-interval needs --report") }
            guard HTMLReport.intervals.contains(interval) else {
                throw refuse("--report-interval must be \(HTMLReport.intervals.lowerBound) to "
                             + "\(HTMLReport.intervals.upperBound) ms, not \(interval)")
            }
        }
        guard let report else { return }
        guard let loads else {
            throw refuse("--report shows loads side by side and cannot be combined with --urls: give at most "
                         + "\(HTMLReport.maxLoads) loads as arguments")
        }
        guard loads <= HTMLReport.maxLoads else {
            throw refuse("--report shows at most \(HTMLReport.maxLoads) loads side by side; this run has \(loads)")
        }
        guard !report.isEmpty else { throw refuse("--report needs a file name") }
        try OutputFile.check(report, what: "the report")
    }

    // Writes the report of `loads`, titled by what the run loaded.
    func write(_ loads: [HTMLReport.Load]) throws {
        guard let report else { return }
        let hosts = Set(loads.compactMap { $0.result.url.host })
        let count = "\(loads.count) load\(loads.count == 1 ? "" : "s")"
        let title = "Headway report: " + (hosts.count == 1 ? hosts.first! : count)
        let html = HTMLReport(title: title, loads: loads, interval: reportInterval).render()
        try OutputFile.write(Data(html.utf8), to: report, what: "the report")
    }
}
