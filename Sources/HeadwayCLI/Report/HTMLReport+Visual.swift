import Foundation
import Headway

// The report's filmstrip (each load's frame shown at each tick of the interval, as WebPageTest's
// visual comparison lays them out) and its visual progress curve (inline SVG).
extension HTMLReport {
    // The recording's span: the latest frame of any load, in ms.
    private var span: Int {
        loads.compactMap { $0.result.filmstrip?.frames.last?.time ?? $0.result.visualMetrics?.lastVisualChange }
            .max() ?? 0
    }

    // The interval the columns use: the one asked for, or a multiple of it that keeps the
    // columns within `maxColumns`.
    var columnInterval: Int {
        let asked = max(1, interval)
        let columns = (span + asked - 1) / asked + 1
        guard columns > Self.maxColumns else { return asked }
        return asked * Int((Double(columns) / Double(Self.maxColumns)).rounded(.up))
    }

    // The frames shown, each once in the style sheet (a cell names its frame's class), and the
    // grid of cells: a row a load, a column a tick; a cell whose frame changed is outlined.
    func filmstrip() -> (style: String, body: String) {
        let step = columnInterval
        let ticks = Array(stride(from: 0, through: span + step - 1, by: step))
        var style = "", rows: [String] = []
        for (index, load) in loads.enumerated() {
            let label = "<th scope=\"row\">\(swatch(index))\(HTML.escape(load.label))</th>"
            guard let strip = load.result.filmstrip, !strip.frames.isEmpty else {
                rows.append("<tr>\(label)<td class=\"none\" colspan=\"\(ticks.count)\">no frames recorded</td></tr>")
                continue
            }
            var used = Set<Int>(), cells: [String] = [], previous = 0
            let ratio = "\(max(1, strip.width)) / \(max(1, strip.height))"
            for tick in ticks {
                let shown = strip.frames.lastIndex { $0.time <= tick } ?? 0
                let changed = shown != previous ? " changed" : ""
                cells.append("<td><div class=\"frame f\(index)-\(shown)\(changed)\" style=\"aspect-ratio:\(ratio)\" "
                    + "title=\"\(HTML.escape(load.label)) at \(tick) ms: frame of \(strip.frames[shown].time) ms\">"
                    + "</div></td>")
                used.insert(shown)
                previous = shown
            }
            for frame in used.sorted() {
                style += ".f\(index)-\(frame){background-image:url(data:image/png;base64,"
                    + strip.frames[frame].pngData.base64EncodedString() + ")}\n"
            }
            rows.append("<tr>\(label)\(cells.joined())</tr>")
        }
        let head = ticks.map { "<th class=\"tick\">\(Self.time(Double($0), step: Double(step)))</th>" }.joined()
        let note = step == interval ? "every \(step) ms" : "every \(step) ms (\(interval) ms asked: at most "
            + "\(Self.maxColumns) columns)"
        return (style, """
            <p class="meta">The view \(note); an outlined frame differs from the one before it.</p>
            <div class="scroll"><table class="film"><thead><tr><th></th>\(head)</tr></thead>
            <tbody>\(rows.joined(separator: "\n"))</tbody></table></div>
            """)
    }

    // Each load's visual progress (0–100%) against time, as steps: a frame's progress holds
    // until the next frame.
    func progressCurve() -> String {
        let width = 760.0, height = 220.0, left = 44.0, bottom = 28.0, top = 8.0, right = 12.0
        let end = Double(max(span, 1))
        let x = { (ms: Double) in left + ms / end * (width - left - right) }
        let y = { (percent: Double) in top + (1 - percent / 100) * (height - top - bottom) }
        var parts: [String] = []
        for percent in stride(from: 0.0, through: 100, by: 25) {
            parts.append("<line class=\"grid\" x1=\"\(left)\" x2=\"\(width - right)\" y1=\"\(y(percent))\" "
                + "y2=\"\(y(percent))\"/><text x=\"\(left - 6)\" y=\"\(y(percent) + 4)\" text-anchor=\"end\">"
                + "\(Int(percent))%</text>")
        }
        let tick = Self.niceStep(end / 8)
        for ms in stride(from: 0.0, through: end, by: tick) {
            parts.append("<text x=\"\(x(ms))\" y=\"\(height - 8)\" text-anchor=\"middle\">"
                + "\(Self.time(ms, step: tick))</text>")
        }
        var drawn = 0
        for (index, load) in loads.enumerated() {
            guard let progress = load.result.visualMetrics?.progress, !progress.isEmpty else { continue }
            var points: [String] = []
            for (point, next) in zip(progress, progress.dropFirst().map(Optional.some) + [nil]) {
                points.append("\(x(Double(point.time))),\(y(Double(point.percent)))")
                points.append("\(x(Double(next?.time ?? max(point.time, Int(end))))),\(y(Double(point.percent)))")
            }
            parts.append("<polyline class=\"curve\" data-load=\"\(index)\" stroke=\"\(Self.color(index))\" "
                + "points=\"\(points.joined(separator: " "))\"><title>\(HTML.escape(load.label))</title></polyline>")
            drawn += 1
        }
        guard drawn > 0 else { return "<p class=\"none\">No load recorded frames.</p>" }
        let legend = loads.indices.filter { loads[$0].result.visualMetrics?.progress.isEmpty == false }
            .map { "<li>\(swatch($0))\(HTML.escape(loads[$0].label))</li>" }.joined()
        return """
            <svg class="curve" viewBox="0 0 \(Int(width)) \(Int(height))" role="img" \
            aria-label="visual progress against time">\(parts.joined())</svg>
            <ul class="legend">\(legend)</ul>
            """
    }

    // A tick's label: ms under a second's step, else seconds with as many decimals as the step needs.
    static func time(_ ms: Double, step: Double) -> String {
        step < 1000 ? "\(Int(ms)) ms" : String(format: step.truncatingRemainder(dividingBy: 1000) == 0 ? "%.0f s"
                                                   : "%.1f s", ms / 1000)
    }

    // A load as a report at `interval` keeps it: only the frames it can show, and none once the
    // report's frames (`bytes` so far) would pass `maxFrameBytes` (with a warning).
    static func keeping(_ label: String, _ result: LoadResult, interval: Int, bytes: inout Int) -> Load {
        var result = result
        if let strip = result.filmstrip {
            let shown = framesShown(strip, every: interval)
            let size = shown.frames.reduce(0) { $0 + $1.pngData.count }
            if bytes + size > maxFrameBytes {
                Console.warn("the report shows \(label) without its frames: they would pass \(maxFrameBytes >> 20) MiB")
                result.filmstrip = nil
            } else {
                bytes += size
                result.filmstrip = shown
            }
        }
        return Load(label: label, result: result)
    }

    // The frames a filmstrip shows at multiples of `interval` (the last frame at or before each),
    // which are all a report at that interval (or a multiple of it) can show.
    static func framesShown(_ strip: Filmstrip, every interval: Int) -> Filmstrip {
        guard let last = strip.frames.last?.time, interval > 0 else { return strip }
        var shown = Set<Int>()
        for tick in stride(from: 0, through: last + interval - 1, by: interval) {
            shown.insert(strip.frames.lastIndex { $0.time <= tick } ?? 0)
        }
        var pruned = strip
        pruned.frames = strip.frames.indices.filter(shown.contains).map { strip.frames[$0] }
        return pruned
    }

    // 1, 2 or 5 times a power of ten, at least `rough` (for axis ticks).
    static func niceStep(_ rough: Double) -> Double {
        guard rough.isFinite, rough > 0 else { return 1 }
        let power = pow(10, (log10(rough)).rounded(.down))
        return [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= rough } ?? 10 * power
    }
}
