import Foundation
import Headway

// One load as the CLI reports it: the result (or the error), the snippets' results, and what
// the page logged.
struct LoadReport: Sendable {
    var url: String
    var run: Int?
    // With --warm: a warm load (again in the same page), numbered apart from the cold runs.
    var warm = false
    var result: LoadResult?
    // The directory its filmstrip's frames were written to (--filmstrip).
    var filmstrip: String?
    var error: HeadwayError?
    var scripts: [SnippetResult] = []
    var console: [ConsoleMessage] = []
    var errors: [PageError] = []
    // All console messages and errors the page had; the lists above keep the first 10,000.
    var consoleTotal = 0
    var errorsTotal = 0
    var dialogs: [JavaScriptDialog] = []

    // The load as the report names it: its URL, run and warmth.
    var label: String {
        url + (run.map { ", run \($0)" } ?? "") + (warm ? ", warm" : "")
    }

    // The load's JSON: the library's encoding of the result (or nulls and the error for a load
    // that failed), with the run number, the snippets' results and what the page logged.
    var json: OrderedJSON {
        var pairs: [(String, OrderedJSON)]
        if let result, case .object(let encoded) = Self.encoded(result) {
            pairs = encoded
        } else {
            pairs = [("url", .string(url)), ("finalURL", .null), ("redirects", .array([])),
                     ("status", .optional(error?.status)), ("title", .null), ("timing", .null), ("resources", .null),
                     ("dialogs", .array([]))]
        }
        pairs.removeAll { $0.0 == "dialogs" }
        if let run, let title = pairs.firstIndex(where: { $0.0 == "title" }) {
            pairs.insert(("run", .number(Double(run))), at: title + 1)
            if warm { pairs.insert(("warm", .bool(true)), at: title + 2) }
        }
        if let filmstrip { pairs.append(("filmstrip", .string(filmstrip))) }
        pairs.append(("scripts", .array(scripts.map(Self.encoded))))
        pairs.append(("console", .array(console.map(Self.encoded))))
        pairs.append(("consoleTotal", .number(Double(max(consoleTotal, console.count)))))
        pairs.append(("consoleTruncated", .bool(consoleTotal > console.count)))
        pairs.append(("errors", .array(errors.map(Self.encoded))))
        pairs.append(("errorsTotal", .number(Double(max(errorsTotal, errors.count)))))
        pairs.append(("errorsTruncated", .bool(errorsTotal > errors.count)))
        pairs.append(("dialogs", .array(dialogs.map(Self.encoded))))
        if let error { pairs.append(("error", Self.encoded(error))) }
        return .object(pairs)
    }

    // The one path from the library's results to the CLI's JSON.
    static func encoded(_ value: some Encodable) -> OrderedJSON {
        (try? OrderedJSONEncoder.encode(value)) ?? .null
    }
}

extension TimingSummary {
    var json: OrderedJSON { LoadReport.encoded(self) }
}
