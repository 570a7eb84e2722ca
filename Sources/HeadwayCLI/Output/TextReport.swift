import Foundation
import Headway

// The human-readable summary printed by `--format text`. What the page controls (title,
// console, snippet values, error messages) goes through `TerminalText.safe`.
enum TextReport {
    static func render(_ report: LoadReport) -> String {
        var lines: [String] = []
        let run = report.run.map { " (\(report.warm ? "warm " : "")run \($0))" } ?? ""
        if let result = report.result {
            let status = result.status.map(String.init) ?? "-"
            lines.append("\(result.finalURL.absoluteString)\(run)  \(status)  \"\(result.title)\"")
            let t = result.timing
            lines.append("  phases    started \(ms(t.started))  committed \(ms(t.committed))  finished "
                + "\(ms(t.finished))")
            lines.append("  page      responseStart \(ms(t.responseStart))  domInteractive \(ms(t.domInteractive))  "
                + "DOMContentLoaded \(ms(t.domContentLoadedEventEnd))  load \(ms(t.loadEventEnd))  "
                + "FCP \(t.firstContentfulPaint.map(ms) ?? "unavailable")")
            let kept = result.resources.truncated ? " (of the entries the page's timing buffer kept)" : ""
            lines.append("  resources \(result.resources.count), "
                + "\(bytes(result.resources.transferBytes)) transferred\(kept)")
        } else {
            lines.append("\(report.url)\(run)  FAILED")
        }
        if let error = report.error { lines.append("  error     \(error.description)") }
        for script in report.scripts {
            if let error = script.error {
                lines.append("  script    \(script.file) threw \(error.description)")
            } else {
                lines.append("  script    \(script.file) = \(script.value?.description ?? "undefined")")
            }
            if let url = script.navigatedTo {
                let status = script.navigatedStatus.map { " (HTTP \($0))" } ?? ""
                lines.append("            navigated to \(url.absoluteString)" + status)
            }
        }
        for message in report.console { lines.append("  console   [\(message.level)] \(message.text)") }
        if report.consoleTotal > report.console.count {
            lines.append("  console   … \(report.consoleTotal - report.console.count) more not kept "
                + "(\(report.consoleTotal) in all)")
        }
        for error in report.errors { lines.append("  page error \(error.message) at \(error.file):\(error.line)") }
        if report.errorsTotal > report.errors.count {
            lines.append("  page error … \(report.errorsTotal - report.errors.count) more not kept "
                + "(\(report.errorsTotal) in all)")
        }
        for dialog in report.dialogs { lines.append("  dialog    \(dialog.type.rawValue) \"\(dialog.message)\" "
            + "answered \(dialog.answer)") }
        return TerminalText.safe(lines.joined(separator: "\n"))
    }

    static func render(_ summary: TimingSummary) -> String {
        var lines = ["\(summary.url.absoluteString): \(summary.runs) \(summary.warm ? "warm" : "cold") loads (ms)",
                     pad("metric", 26) + pad("min", 10) + pad("median", 10) + pad("p95", 10) + pad("max", 10)]
        for (name, s) in summary.metrics {
            let figures = [s.min, s.median, s.p95, s.max].map { pad(String(format: "%.1f", $0), 10) }
            lines.append(pad(name, 26) + figures.joined())
        }
        return TerminalText.safe(lines.joined(separator: "\n"))
    }

    static func ms(_ value: Double) -> String { String(format: "%.1f ms", value) }

    static func ms(_ value: Duration) -> String { ms(value.milliseconds) }

    static func bytes(_ count: Int) -> String {
        count >= 1_000_000 ? String(format: "%.2f MB", Double(count) / 1e6)
            : count >= 1000 ? String(format: "%.1f kB", Double(count) / 1e3) : "\(count) B"
    }

    static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count)
    }
}
