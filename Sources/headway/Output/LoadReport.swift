import Foundation
import Headway

/// One load as the CLI reports it: the result (or the error), the snippets' results, and what
/// the page logged.
struct LoadReport: Sendable {
    var url: String
    var run: Int?
    var result: LoadResult?
    var error: HeadwayError?
    var scripts: [SnippetResult] = []
    var console: [ConsoleMessage] = []
    var errors: [PageError] = []
    /// All console messages and errors the page had; the lists above keep the first 10,000.
    var consoleTotal = 0
    var errorsTotal = 0
    var dialogs: [JavaScriptDialog] = []

    var json: OrderedJSON {
        var pairs: [(String, OrderedJSON)] = [
            ("url", .string(url)),
            ("finalURL", .optional(result?.finalURL.absoluteString)),
            ("redirects", .array((result?.redirects ?? []).map {
                .object([("from", .string($0.from.absoluteString)), ("to", .string($0.to.absoluteString)),
                         ("kind", .string($0.kind.rawValue))])
            })),
            ("status", .optional(result?.status ?? error?.status)),
            ("title", .optional(result?.title)),
        ]
        if let run { pairs.append(("run", .number(Double(run)))) }
        if let timing = result?.timing {
            pairs.append(("timing", .object(timing.metrics.map { ($0.name, .number($0.value)) }
                + (timing.firstContentfulPaint == nil ? [("firstContentfulPaint", .null)] : []))))
        } else {
            pairs.append(("timing", .null))
        }
        if let resources = result?.resources {
            pairs.append(("resources", .object([
                ("count", .number(Double(resources.count))),
                ("transferBytes", .number(Double(resources.transferBytes))),
                ("encodedBytes", .number(Double(resources.encodedBytes))),
            ])))
        } else {
            pairs.append(("resources", .null))
        }
        if let prefetch = result?.prefetch {
            pairs.append(("prefetch", .object([("fromCache", .number(Double(prefetch.fromCache))),
                                                ("joined", .number(Double(prefetch.joined))),
                                                ("fetched", .number(Double(prefetch.fetched))),
                                                ("revalidated", .number(Double(prefetch.revalidated))),
                                                ("slowestCacheAnswerMs", .number(prefetch.slowestCacheAnswerMs))])))
        }
        pairs.append(("scripts", .array(scripts.map(Self.json))))
        pairs.append(("console", .array(console.map { .object([("level", .string($0.level)), ("text", .string($0.text))]) })))
        pairs.append(("consoleTotal", .number(Double(max(consoleTotal, console.count)))))
        pairs.append(("consoleTruncated", .bool(consoleTotal > console.count)))
        pairs.append(("errors", .array(errors.map(Self.json))))
        pairs.append(("errorsTotal", .number(Double(max(errorsTotal, errors.count)))))
        pairs.append(("errorsTruncated", .bool(errorsTotal > errors.count)))
        pairs.append(("dialogs", .array(dialogs.map(Self.json))))
        if let error { pairs.append(("error", Self.json(error))) }
        return .object(pairs)
    }

    static func json(_ script: SnippetResult) -> OrderedJSON {
        var pairs: [(String, OrderedJSON)] = [("file", .string(script.file))]
        if let error = script.error {
            pairs.append(("error", .object([
                ("message", .string(error.message)), ("file", .string(error.file)),
                ("line", .number(Double(error.line))), ("column", .number(Double(error.column))),
            ])))
        } else {
            pairs.append(("value", OrderedJSON(script.value ?? .null)))
        }
        if let url = script.navigatedTo {
            pairs.append(("navigatedTo", .string(url.absoluteString)))
            pairs.append(("navigatedStatus", .optional(script.navigatedStatus)))
        }
        return .object(pairs)
    }

    static func json(_ error: PageError) -> OrderedJSON {
        .object([("message", .string(error.message)), ("file", .string(error.file)),
                 ("line", .number(Double(error.line))), ("column", .number(Double(error.column)))])
    }

    static func json(_ dialog: JavaScriptDialog) -> OrderedJSON {
        var pairs: [(String, OrderedJSON)] = [("type", .string(dialog.type.rawValue)), ("message", .string(dialog.message))]
        if let text = dialog.defaultText { pairs.append(("defaultText", .string(text))) }
        pairs.append(("answer", OrderedJSON(dialog.answer)))
        return .object(pairs)
    }

    static func json(_ error: HeadwayError) -> OrderedJSON {
        var pairs: [(String, OrderedJSON)] = [("code", .string(error.code.rawValue)), ("message", .string(error.message))]
        if let g = error.gerror {
            pairs.append(("gerror", .object([("domain", .string(g.domain)), ("code", .number(Double(g.code))),
                                              ("message", .string(g.message))])))
        }
        return .object(pairs)
    }
}

extension TimingSummary {
    var json: OrderedJSON {
        .object([
            ("url", .string(url.absoluteString)),
            ("runs", .number(Double(runs))),
            ("metrics", .object(metrics.map { metric in
                (metric.name, .object([("min", .number(metric.summary.min)), ("median", .number(metric.summary.median)),
                                       ("p95", .number(metric.summary.p95)), ("max", .number(metric.summary.max))]))
            })),
        ])
    }
}
