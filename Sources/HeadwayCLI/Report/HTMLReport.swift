import Foundation
import Headway

// `--report FILE.html`: the run's loads side by side in one self-contained HTML file (no script,
// no request: frames are PNG data URIs in the style sheet, curves and bars are inline SVG and
// CSS). Sections: the timing table, the filmstrip at an interval, the visual progress curve,
// and each load's waterfall with the booster's requests marked.
struct HTMLReport {
    struct Load {
        var label: String
        var result: LoadResult
    }

    // At most this many loads side by side, and this many filmstrip columns.
    static let maxLoads = 20
    static let maxColumns = 200
    // The filmstrip's interval bounds, in ms.
    static let intervals = 16...60_000
    static let defaultInterval = 100
    // The frames a report keeps in all (PNG bytes); a load past it is shown without frames.
    static let maxFrameBytes = 256 << 20

    var title: String
    var loads: [Load]
    var interval = Self.defaultInterval

    func render(generated: Date = Date()) -> String {
        let stamp = ISO8601DateFormatter().string(from: generated)
        let film = filmstrip()
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="generator" content="headway \(HTML.escape(Headway.version))">
            <title>\(HTML.escape(title))</title>
            <style>\(Self.style)\(film.style)</style></head>
            <body><header><h1>\(HTML.escape(title))</h1>
            <p class="meta">\(loads.count) load\(loads.count == 1 ? "" : "s"), written \(stamp) by headway \
            \(HTML.escape(Headway.version)).</p></header>
            <section id="timing"><h2>Timing</h2>\(timingTable())</section>
            <section id="filmstrip"><h2>Filmstrip</h2>\(film.body)</section>
            <section id="progress"><h2>Visual progress</h2>\(progressCurve())</section>
            <section id="waterfalls"><h2>Requests</h2>\(loads.indices.map(waterfall).joined(separator: "\n"))</section>
            <footer><p>Timing, filmstrip and progress: ms from each navigation's start, on the page's Navigation \
            Timing clock; waterfalls: from the load request, each at its own scale. Visual metrics are computed from \
            the frames as browsertime's visualmetrics computes them.</p></footer>
            </body></html>

            """
    }

    // One row a load: Navigation Timing, Paint Timing and the visual metrics, in ms.
    private func timingTable() -> String {
        let columns: [(String, String)] = [
            ("responseStart", "TTFB"), ("firstContentfulPaint", "FCP"), ("domContentLoadedEventEnd", "DCL"),
            ("loadEventEnd", "Load"), ("firstVisualChange", "First visual change"), ("speedIndex", "Speed Index"),
            ("visualComplete85", "VC 85%"), ("visualComplete95", "VC 95%"), ("visualComplete99", "VC 99%"),
            ("lastVisualChange", "Last visual change"),
        ]
        var rows = ["<table class=\"timing\"><thead><tr><th>load</th><th>status</th>"
            + columns.map { "<th>\(HTML.escape($0.1))</th>" }.joined()
            + "<th>requests</th><th>booster</th></tr></thead><tbody>"]
        for (index, load) in loads.enumerated() {
            // Navigation Timing's 0 is a figure the engine did not give (a visual metric's is a time).
            let timing = load.result.timing.metrics.filter { $0.value > 0 }
            let figures = Dictionary(timing + (load.result.visualMetrics?.metrics ?? []),
                                     uniquingKeysWith: { first, _ in first })
            let cells = columns.map { column in
                figures[column.0].map { "<td class=\"num\">\(Self.ms($0))</td>" } ?? "<td class=\"none\">–</td>"
            }
            rows.append("<tr><th scope=\"row\">\(swatch(index))\(HTML.escape(load.label))</th>"
                + "<td>\(load.result.status.map(String.init) ?? "–")</td>" + cells.joined()
                + "<td class=\"num\">\(load.result.resourceEntries?.count ?? load.result.resources.count)</td>"
                + "<td>\(HTML.escape(booster(load.result)))</td></tr>")
        }
        rows.append("</tbody></table>")
        return rows.joined(separator: "\n")
    }

    // What the booster did for the load, in words.
    private func booster(_ result: LoadResult) -> String {
        guard let stats = result.prefetch else { return "off" }
        if stats.prerendered { return "prerendered" }
        let answered = stats.fromCache + stats.joined
        return answered > 0 ? "\(answered) from its cache" : "on, nothing from its cache"
    }

    func swatch(_ index: Int) -> String {
        "<span class=\"swatch\" style=\"background:\(Self.color(index))\"></span>"
    }

    static func color(_ index: Int) -> String {
        let palette = ["#1f6feb", "#d9480f", "#2b8a3e", "#9c36b5", "#c92a2a", "#0b7285", "#e67700", "#495057",
                       "#5c940d", "#a61e4d", "#1864ab", "#862e9c", "#087f5b", "#f08c00", "#364fc7", "#e8590c",
                       "#2f9e44", "#d6336c", "#343a40", "#74b816"]
        return palette[index % palette.count]
    }

    static func ms(_ value: Double) -> String {
        value.isFinite ? String(Int(value.rounded())) : "–"
    }
}

// Text and attribute values made safe for HTML.
enum HTML {
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }
}
