import Foundation
import Headway

// Reads a HAR file and renders its waterfall.
enum HARSummary {
    struct Log: Decodable {
        struct Page: Decodable {
            struct Timings: Decodable { var onLoad: Double? }
            var id: String
            var title: String?
            var startedDateTime: String
            var pageTimings: Timings?
        }
        struct Entry: Decodable {
            struct Request: Decodable { var method: String; var url: String }
            struct Response: Decodable {
                struct Content: Decodable { var size: Int? }
                var status: Int
                var bodySize: Int?
                var content: Content?
            }
            var pageref: String?
            var startedDateTime: String
            var time: Double
            var request: Request
            var response: Response
            var _fromCache: String?
        }
        var pages: [Page]?
        var entries: [Entry]
    }

    private struct Document: Decodable { var log: Log }

    static func read(_ path: String) throws -> Log {
        let data: Data
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let read = FileManager.default.contents(atPath: path) else {
                throw HeadwayError(.fileUnreadable, "HAR file not found or not readable: \(path)")
            }
            data = read
        }
        do {
            return try JSONDecoder().decode(Document.self, from: data).log
        } catch {
            throw HeadwayError(.fileUnreadable, "\(path == "-" ? "stdin" : path) is not a HAR file (no log with "
                + "entries)")
        }
    }

    static func render(_ log: Log, width: Int) -> String {
        var lines: [String] = []
        let pages = log.pages
            ?? [Log.Page(id: "", title: nil, startedDateTime: log.entries.first?.startedDateTime ?? "")]
        for page in pages {
            let entries = log.entries.filter { log.pages == nil || $0.pageref == page.id }
            let starts = entries.map { date($0.startedDateTime) ?? 0 }
            let origin = date(page.startedDateTime) ?? starts.min() ?? 0
            let span = max(1, zip(entries, starts).map { ($1 - origin) * 1000 + $0.time }.max() ?? 1,
                           page.pageTimings?.onLoad ?? 0)
            let load = page.pageTimings?.onLoad.map { $0 >= 0 ? "load \(whole($0)) ms, " : "" } ?? ""
            lines.append("\(TerminalText.oneLine(page.title ?? page.id)) (\(load)\(entries.count) requests)")
            for (entry, start) in zip(entries, starts) {
                let offset = max(0, (start - origin) * 1000)
                let first = min(width - 1, whole((offset / span * Double(width)).rounded(.down)))
                let length = max(1, min(width - first, whole(entry.time / span * Double(width))))
                let bar = String(repeating: " ", count: first) + String(repeating: "#", count: length)
                    + String(repeating: " ", count: width - first - length)
                let status = entry.response.status > 0 ? String(entry.response.status) : "---"
                let mark = entry._fromCache == "prefetch" ? "P" : " "
                let size = bytes(entry.response.content?.size ?? entry.response.bodySize ?? 0)
                lines.append("  \(pad(status, 3))\(mark) \(pad(entry.request.method, 6)) \(pad(size, 8, right: true)) "
                    + "\(pad("\(whole(entry.time)) ms", 8, right: true)) |\(bar)| "
                        + "\(TerminalText.oneLine(entry.request.url))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // `value` rounded to a whole number; a file's NaN, infinity or 1e300 never traps.
    private static func whole(_ value: Double) -> Int {
        value.isNaN ? 0 : Int(min(max(value, -1e15), 1e15).rounded())
    }

    private static func date(_ text: String) -> Double? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date.timeIntervalSince1970 }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)?.timeIntervalSince1970
    }

    private static func bytes(_ count: Int) -> String {
        count < 1024 ? "\(count) B" : count < 1 << 20 ? String(format: "%.1f KB", Double(count) / 1024)
            : String(format: "%.1f MB", Double(count) / 1_048_576)
    }

    private static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - text.count))
        return right ? fill + text : text + fill
    }
}
