import Foundation
import Headway

// A load's waterfall: each request as a bar from its start to its end on the load's clock
// (waiting for the first byte lighter than receiving), the booster's answers marked, and lines
// at DOMContentLoaded and the load event.
extension HTMLReport {
    // Rows drawn a load; the rest are counted.
    static let maxRequests = 500

    func waterfall(_ index: Int) -> String {
        let load = loads[index], result = load.result
        let heading = "<h3>\(swatch(index))\(HTML.escape(load.label))</h3>"
        guard let entries = result.resourceEntries, !entries.isEmpty else {
            let why = result.prefetch?.prerendered == true ? " (a prerendered page: its requests were made before)" : ""
            return "<div class=\"waterfall\" data-load=\"\(index)\">\(heading)<p class=\"none\">No requests recorded"
                + "\(why).</p></div>"
        }
        let origin = result.startTime?.wallClock ?? entries.map(\.startedDateTime).min() ?? Date()
        let started = result.timing.started.milliseconds
        let starts = entries.map { max(0, $0.startedDateTime.timeIntervalSince(origin) * 1000) }
        let ends = zip(entries, starts).map { $1 + max(0, $0.timings?.total ?? 0) }
        let timing = result.timing
        let markers = [("DOMContentLoaded", timing.domContentLoadedEventEnd), ("load", timing.loadEventEnd)]
            .filter { $0.1 > 0 }.map { ($0.0, started + $0.1) }
        let span = max(1, (ends + markers.map(\.1)).max() ?? 1)
        let percent = { (ms: Double) in String(format: "%.3f%%", min(100, max(0, ms / span * 100))) }
        var rows: [String] = []
        for (entry, start) in zip(entries, starts).prefix(Self.maxRequests) {
            let timings = entry.timings
            let total = max(0, timings?.total ?? 0)
            let receive = min(total, max(0, timings?.receive ?? 0))
            let booster = entry.fromPrefetchCache
            let name = entry.url.lastPathComponent.isEmpty ? entry.url.absoluteString : entry.url.lastPathComponent
            let status = (entry.status > 0 ? String(entry.status) : "–") + (booster ? " <b class=\"p\">P</b>" : "")
            let size = TextReport.bytes(max(entry.transferSize, entry.encodedBodySize))
            let receiving = total > 0 ? String(format: "%.1f%%", receive / total * 100) : "100%"
            rows.append("<tr class=\"\(booster ? "prefetched" : "network")\">"
                + "<td class=\"url\" title=\"\(HTML.escape(entry.url.absoluteString))\">\(HTML.escape(name))</td>"
                + "<td>\(status)</td><td class=\"num\">\(HTML.escape(size))</td>"
                + "<td class=\"num\">\(Self.ms(total))</td>"
                + "<td class=\"lane\"><div class=\"bar\" style=\"left:\(percent(start));"
                + "width:\(percent(max(total, span / 400)))\" title=\"\(Self.ms(start)) ms + \(Self.ms(total)) ms\">"
                + "<span class=\"receive\" style=\"width:\(receiving)\"></span></div>"
                + markers.map { "<i class=\"marker\" style=\"left:\(percent($0.1))\"></i>" }.joined() + "</td></tr>")
        }
        if entries.count > Self.maxRequests {
            rows.append("<tr><td class=\"none\" colspan=\"5\">… and \(entries.count - Self.maxRequests) more</td></tr>")
        }
        let served = entries.filter(\.fromPrefetchCache).count
        let legend = markers.map { "\($0.0) at \(Self.ms($0.1)) ms" }.joined(separator: ", ")
        return """
            <div class="waterfall" data-load="\(index)">\(heading)
            <p class="meta">\(entries.count) requests, \(served) answered by the booster (P); \(HTML.escape(legend)); \
            from the load request, \(Self.ms(span)) ms across.</p>
            <table class="requests"><thead><tr><th>request</th><th>status</th><th>size</th><th>ms</th><th></th></tr>\
            </thead><tbody>\(rows.joined(separator: "\n"))</tbody></table></div>
            """
    }
}
