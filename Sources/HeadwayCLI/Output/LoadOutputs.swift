import Foundation
import Headway

// Reads what `headway load` printed (json or jsonl) back, for `headway merge`.
enum LoadOutputs {
    // One load object as it was printed, with its library result when it has one (a failed
    // load's timing is null).
    struct Load {
        var json: OrderedJSON
        var url: String
        var result: LoadResult?
    }

    // The members a document (`--format json`) and a jsonl run's last line may have.
    private static let documentKeys: Set = ["loads", "summary", "screenshot", "prefetch"]
    private static let tailKeys: Set = ["summary", "screenshot", "prefetch"]

    // The loads in `path` (`-`: stdin), in order: a document's "loads", or a jsonl run's load
    // lines (its last line, {"summary"…}/{"prefetch"…}/{"screenshot"…}, is left out). Anything
    // else is `.fileUnreadable` naming the file and the line.
    static func loads(in path: String) throws -> [Load] {
        let name = path == "-" ? "stdin" : path
        let text = try read(path, name: name)
        var values: [(line: Int, value: OrderedJSON)] = []
        if let document = try? OrderedJSON(parsing: text) {
            // Its line: where its first character is.
            let start = text.prefix { $0.isWhitespace }
            values = [(start.count { $0 == "\n" || $0 == "\r\n" } + 1, document)]
        } else {
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where !line.allSatisfy(\.isWhitespace) {
                do {
                    values.append((index + 1, try OrderedJSON(parsing: String(line))))
                } catch {
                    throw HeadwayError(.fileUnreadable, "\(name) line \(index + 1) is not JSON (\(error)); merge reads "
                        + "what headway load --format json or jsonl printed")
                }
            }
        }
        var loads: [Load] = []
        for (line, value) in values {
            let place = "\(name) line \(line)"
            let keys = Set(value.keys ?? [])
            if case .array(let items)? = value["loads"], keys.isSubset(of: documentKeys) {
                for (index, item) in items.enumerated() {
                    loads.append(try load(item, at: "\(place), loads[\(index)]"))
                }
            } else if value["url"] != nil {
                loads.append(try load(value, at: place))
            } else if keys.isEmpty || !keys.isSubset(of: tailKeys) {
                throw HeadwayError(.fileUnreadable, "\(place) is not what headway load prints (a document with "
                    + "\"loads\", a load, or a last line with \"summary\" or \"prefetch\")")
            }
        }
        return loads
    }

    private static func read(_ path: String, name: String) throws -> String {
        guard path == "-" else { return try TextFile.read(path, what: "file to merge") }
        guard let text = String(data: FileHandle.standardInput.readDataToEndOfFile(), encoding: .utf8) else {
            throw HeadwayError(.fileUnreadable, "stdin is not UTF-8 text")
        }
        return text
    }

    // Checks one load object: a URL, and either a failed load's null timing beside its error
    // or what `LoadResult` decodes.
    private static func load(_ json: OrderedJSON, at place: String) throws -> Load {
        guard let url = json["url"]?.stringValue else {
            throw HeadwayError(.fileUnreadable, "\(place) is not a load from headway load (no \"url\" string)")
        }
        switch json["timing"] {
        case .null?:
            guard case .object? = json["error"] else {
                throw HeadwayError(.fileUnreadable, "\(place) is not a load from headway load (its timing is null, but "
                    + "it has no \"error\")")
            }
            return Load(json: json, url: url, result: nil)
        case nil:
            throw HeadwayError(.fileUnreadable, "\(place) is not a load from headway load (no \"timing\")")
        default:
            do {
                let result = try JSONDecoder().decode(LoadResult.self, from: Data(json.text.utf8))
                return Load(json: json, url: url, result: result)
            } catch let error as DecodingError {
                throw HeadwayError(.fileUnreadable, "\(place) is not a load from headway load (\(describe(error)))")
            }
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context, _ last: (any CodingKey)? = nil) -> String {
            (context.codingPath + [last].compactMap { $0 }).map(\.stringValue).joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "no \"\(path(context, key))\""
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(path(context)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    // `{"loads":[...],"summary":[...]}`: every load as it was printed, in order, then, for
    // each URL loaded more than once (failed loads count; in the order first seen), the
    // summary `--repeat` computes over its loads that have timing.
    static func merged(_ loads: [Load]) -> OrderedJSON {
        var order: [String] = []
        var counts: [String: Int] = [:]
        var results: [String: [LoadResult]] = [:]
        for load in loads {
            if counts[load.url] == nil { order.append(load.url) }
            counts[load.url, default: 0] += 1
            if let result = load.result { results[load.url, default: []].append(result) }
        }
        // A bad line of a list is no URL: it has no summary, as with --repeat.
        let summaries = order.compactMap { url -> TimingSummary? in
            guard counts[url, default: 0] > 1, let parsed = try? URLList.parse(url) else { return nil }
            return TimingSummary(url: parsed, results: results[url] ?? [])
        }
        return .object([("loads", .array(loads.map(\.json))), ("summary", .array(summaries.map(\.json)))])
    }
}
