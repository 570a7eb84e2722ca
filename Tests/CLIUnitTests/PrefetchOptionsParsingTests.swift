import Foundation
import Headway
@testable import HeadwayCLI
import Testing

/// `load`'s prefetch options: what each becomes in `BoosterConfiguration`, and the one-line usage
/// error for each bad value. No browser starts.
@Suite("load's prefetch options")
struct PrefetchOptionsParsingTests {
    static func booster(_ arguments: [String], headers: [(name: String, value: String)] = []) throws
        -> BoosterConfiguration {
        let options = try PrefetchOptions.parse(arguments)
        try options.check()
        var booster = BoosterConfiguration()
        try options.apply(to: &booster, headers: headers)
        return booster
    }

    @Test func eagernessBudgetAndPageCap() throws {
        let defaults = try Self.booster([])
        #expect(defaults.eagerness == .moderate && defaults.byteBudget == nil && defaults.maxPagesPerPage == 50)
        let set = try Self.booster(["--prefetch-eagerness", "eager", "--prefetch-budget", "500k",
                                    "--prefetch-max-pages", "7"])
        #expect(set.eagerness == .eager && set.byteBudget == 500 << 10 && set.maxPagesPerPage == 7)
        #expect(try Self.booster(["--prefetch-budget", "2M"]).byteBudget == 2 << 20)
        #expect(try Self.booster(["--prefetch-budget", "1234"]).byteBudget == 1234)
        #expect(try Self.booster(["--prefetch-budget", "3MB"]).byteBudget == 3 << 20)
    }

    @Test func saveDataMakesTheDefaultConservative() throws {
        #expect(try Self.booster([], headers: [("Save-Data", "on")]).eagerness == .conservative)
        #expect(try Self.booster(["--prefetch-eagerness", "moderate"], headers: [("save-data", "on")]).eagerness
            == .moderate, "an explicit eagerness wins")
        #expect(try Self.booster([], headers: [("Save-Data", "off")]).eagerness == .moderate)
    }

    @Test func badValuesAreRefusedInOneLine() throws {
        for budget in ["-1", "lots", "", "12q", "99999999999999999999"] {
            #expect(throws: HeadwayError.self, "\(budget)") { try Self.booster(["--prefetch-budget", budget]) }
        }
        #expect(throws: HeadwayError.self) { try Self.booster(["--prefetch-max-pages", "-1"]) }
        #expect(throws: HeadwayError.self) { try Self.booster(["--prefetch-max-pages", "1001"]) }
        #expect(throws: (any Error).self) { try Self.booster(["--prefetch-eagerness", "sometimes"]) }
    }
}
