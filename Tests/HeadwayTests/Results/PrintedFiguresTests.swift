import Foundation
import Headway
import Testing

/// Timing figures as JSON prints them: milliseconds with at most three decimals, never the noise
/// of binary floating point (`52.00000000000001`).
@Suite struct PrintedFiguresTests {
    /// A load whose figures carry floating-point noise, as subtracting two clock readings gives.
    static let noisyLoad = """
    {"url": "http://127.0.0.1/a", "finalURL": "http://127.0.0.1/a", "status": 200, "title": "A",
     "timing": {"started": 1.0000000000000002, "committed": 12.300000000000004, "finished": 52.00000000000001,
                "responseStart": 0.30000000000000004, "domInteractive": 40.12345678, \
    "domContentLoadedEventEnd": 41.00000000000001,
                "loadEventEnd": 52.00000000000001, "firstContentfulPaint": 44.99999999999999},
     "resources": {"count": 0, "transferBytes": 0, "encodedBytes": 0},
     "prefetch": {"fromCache": 1, "joined": 0, "fetched": 0, "revalidated": 0, \
    "slowestCacheAnswerMs": 2.0000000000000004}}
    """

    /// The numbers in `json`, as printed.
    static func numbers(in json: String) -> [Substring] {
        json.split(whereSeparator: { !"0123456789.-e".contains($0) }).filter { $0.contains(".") }
    }

    @Test func aLoadAndItsSummaryPrintAtMostThreeDecimals() throws {
        let load = try JSONDecoder().decode(LoadResult.self, from: Data(Self.noisyLoad.utf8))
        let summary = TimingSummary(url: load.url, results: [load, load, load])
        let har = HARLog(loads: [load])
        for value in [
            try JSONEncoder().encode(load), try JSONEncoder().encode(summary), try JSONEncoder().encode(har),
        ] {
            let json = String(decoding: value, as: UTF8.self)
            for number in Self.numbers(in: json) {
                let decimals = number.split(separator: ".").last?.count ?? 0
                #expect(decimals <= 3 && !number.contains("e"), "\(number) in \(json)")
            }
        }
        let printed = String(decoding: try JSONEncoder().encode(summary), as: UTF8.self)
        #expect(printed.contains(#""p95":52,"#) || printed.contains(#""p95":52}"#), "\(printed)")
    }
}
