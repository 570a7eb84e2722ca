import ArgumentParser
import Foundation
import Headway

// `load`'s options for what the booster prefetches and how much it may spend.
struct PrefetchOptions: ParsableArguments {
    enum Eagerness: String, ExpressibleByArgument, CaseIterable { case conservative, moderate, eager }

    @Option(name: .customLong("prefetch-eagerness"), help: ArgumentHelp(
        "With --prefetch: conservative (only the links the page hints at: speculation rules, <link rel=next|" +
        "prefetch|prerender>), moderate (those on a page that hints; on one that does not, the likeliest links " +
        "within a budget sized to the page; the default, or conservative with --header 'Save-Data: on') or eager " +
        "(every allowed link)."))
    var eagerness: Eagerness?

    @Option(name: .customLong("prefetch-budget"), parsing: .unconditional, help: ArgumentHelp(
        "With --prefetch, the most bytes prefetched for one page, hinted links included: an integer, or with k, M " +
        "or G (500k, 2M; 1024-based). Default: sized to the page under moderate, 32M otherwise.",
        valueName: "BYTES"))
    var budget: String?

    @Option(name: .customLong("prefetch-max-pages"), parsing: .unconditional, help: ArgumentHelp(
        "With --prefetch, the most linked pages prefetched for one page, 0 to \(Self.mostPages) (default 50).",
        valueName: "N"))
    var maxPages: Int?

    static let mostPages = 1000

    // Whether any of these options was given (they need --prefetch).
    var isSet: Bool { eagerness != nil || budget != nil || maxPages != nil }

    // Checks the values, without a browser.
    func check() throws {
        if let budget { _ = try Self.bytes(budget, name: "--prefetch-budget") }
        if let maxPages, !(0...Self.mostPages).contains(maxPages) {
            throw HeadwayError(.invalidArgument, "--prefetch-max-pages must be 0 to \(Self.mostPages), not \(maxPages)")
        }
    }

    // Sets `booster`'s eagerness, budget and page cap; `headers` are the pages' extra headers,
    // where `Save-Data: on` makes the default eagerness conservative.
    func apply(to booster: inout BoosterConfiguration, headers: [(name: String, value: String)]) throws {
        let savesData = headers.contains { $0.name.lowercased() == "save-data" && $0.value.lowercased() == "on" }
        switch eagerness {
        case .conservative?: booster.eagerness = .conservative
        case .moderate?: booster.eagerness = .moderate
        case .eager?: booster.eagerness = .eager
        case nil: booster.eagerness = savesData ? .conservative : .moderate
        }
        if let budget { booster.byteBudget = try Self.bytes(budget, name: "--prefetch-budget") }
        if let maxPages { booster.maxPagesPerPage = maxPages }
    }

    // Parses a byte count such as `1000`, `500k`, `2M`, `1G` (`kb`, `MB`, `GB` too; 1024-based).
    static func bytes(_ text: String, name: String) throws -> Int {
        let lower = text.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [(String, Int)] = [("kb", 1 << 10), ("mb", 1 << 20), ("gb", 1 << 30),
                                      ("k", 1 << 10), ("m", 1 << 20), ("g", 1 << 30), ("b", 1)]
        var digits = lower, factor = 1
        if let unit = units.first(where: { lower.hasSuffix($0.0) }) {
            digits = String(lower.dropLast(unit.0.count))
            factor = unit.1
        }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit), let value = Int(digits),
              value <= Int.max / factor else {
            throw HeadwayError(.invalidArgument,
                               "\(name) must be a byte count such as 500000, 500k or 2M, not \(text.debugDescription)")
        }
        return value * factor
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
