import Foundation
import Headway

/// Reads what `headway load` printed (json or jsonl) back, for `headway merge`.
enum LoadOutputs {
    /// The load objects in `path`, in order. A missing file, or one holding something other
    /// than `headway load` output, is `.fileUnreadable` naming the file (and the line).
    static func loads(in path: String) throws -> [JSONValue] {
        let data: Data
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let read = FileManager.default.contents(atPath: path) else {
                throw HeadwayError(.fileUnreadable, "file to merge not found or not readable: \(path)")
            }
            data = read
        }
        let name = path == "-" ? "stdin" : path
        guard let text = String(data: data, encoding: .utf8) else { throw HeadwayError(.fileUnreadable, "\(name) is not UTF-8 text") }
        // One document (--format json) has its loads in "loads".
        if let document = try? JSONValue(json: text), case .array(let loads)? = document["loads"] {
            return try loads.enumerated().map { try checked($1, "\(name): loads[\($0)]") }
        }
        var loads: [JSONValue] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
        where !line.allSatisfy(\.isWhitespace) {
            guard let value = try? JSONValue(json: String(line)), case .object = value else {
                throw HeadwayError(.fileUnreadable, "\(name) line \(index + 1) is not JSON from headway load")
            }
            // A jsonl run ends with {"summary":…} or {"prefetch":…}: recomputed or left out.
            if value["url"] == nil, value["summary"] != nil || value["prefetch"] != nil || value["screenshot"] != nil { continue }
            loads.append(try checked(value, "\(name) line \(index + 1)"))
        }
        return loads
    }

    private static func checked(_ load: JSONValue, _ place: String) throws -> JSONValue {
        guard case .object = load, load["url"]?.stringValue != nil, load["timing"] != nil else {
            throw HeadwayError(.fileUnreadable, "\(place) is not a load object from headway load (no url and timing)")
        }
        return load
    }

    /// `{"loads":[...],"summary":[...]}`: the summary, as `--repeat` computes it, for each URL
    /// loaded more than once.
    static func merged(_ loads: [JSONValue]) -> OrderedJSON {
        var order: [String] = []
        var results: [String: [LoadResult]] = [:]
        for load in loads {
            // A failed load (its timing is null) has no figures to summarise.
            guard let url = load["url"]?.stringValue, let result = try? load.decode(as: LoadResult.self) else { continue }
            if results[url] == nil { order.append(url) }
            results[url, default: []].append(result)
        }
        let summaries = order.compactMap { url -> TimingSummary? in
            guard let list = results[url], list.count > 1, let parsed = URL(string: url) else { return nil }
            return TimingSummary(url: parsed, results: list)
        }
        var pairs: [(String, OrderedJSON)] = [("loads", .array(loads.map(LoadReport.encoded)))]
        if !summaries.isEmpty { pairs.append(("summary", .array(summaries.map(\.json)))) }
        return .object(pairs)
    }
}
