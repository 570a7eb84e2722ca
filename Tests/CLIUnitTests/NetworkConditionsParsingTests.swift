import Headway
@testable import HeadwayCLI
import Testing

/// `--bandwidth` and `--latency`: units, limits, and the messages a bad value gets.
@Suite("--bandwidth and --latency parsing")
struct NetworkConditionsParsingTests {
    @Test(arguments: [("5mbit", 625_000.0), ("500kbit", 62_500), ("1gbit", 125e6), ("64000bit", 8_000),
                      ("2MB", 2_000_000), ("300KB", 300_000), ("1b", 1), (" 5MBIT ", 625_000), ("100gbit", 12.5e9),
                      ("0.5mbit", 62_500), ("1e3kb", 1e6)])
    func bandwidthsInEachUnit(text: String, bytesPerSecond: Double) throws {
        #expect(try NetworkConditions.parseBandwidth(text) == bytesPerSecond)
    }

    @Test(arguments: ["0", "none", "unlimited", "NONE", " 0 ", "0mbit", "0.0kb", "-0mbit"])
    func noCap(text: String) throws {
        #expect(try NetworkConditions.parseBandwidth(text) == nil)
    }

    @Test func badBandwidthsAreUsageErrorsNamingTheOption() {
        let bad: [(String, String)] = [
            ("1e300mbit", "--bandwidth must be at most 100gbit: '1e300mbit'"),
            ("infkb", "--bandwidth must be at most 100gbit: 'infkb'"),
            ("100.001gbit", "--bandwidth must be at most 100gbit: '100.001gbit'"),
            ("-1mbit", "--bandwidth must be positive (0 means no cap): '-1mbit'"),
            ("nanmbit", "--bandwidth must be positive (0 means no cap): 'nanmbit'"),
            ("fast", "not a bandwidth: 'fast' (use for example 5mbit, 500kbit or 2MB)"),
            ("", "not a bandwidth: '' (use for example 5mbit, 500kbit or 2MB)"),
            ("mbit", "not a bandwidth: 'mbit' (use for example 5mbit, 500kbit or 2MB)"),
            ("5 mbit", "not a bandwidth: '5 mbit' (use for example 5mbit, 500kbit or 2MB)"),
            ("5mbit\r\n", "not a bandwidth: '5mbit\r\n' (use for example 5mbit, 500kbit or 2MB)"),
            ("５mbit", "not a bandwidth: '５mbit' (use for example 5mbit, 500kbit or 2MB)"),
            ("99999999999999999999999999999gbit", "--bandwidth must be at most 100gbit: "
                + "'99999999999999999999999999999gbit'"),
        ]
        for (text, message) in bad {
            #expect(throws: HeadwayError(.invalidArgument, message)) {
                try NetworkConditions.parseBandwidth(text, name: "--bandwidth")
            }
        }
    }

    @Test(arguments: [("50ms", Duration.milliseconds(50)), ("0.2s", .milliseconds(200)), ("0", .zero), ("0s", .zero),
                      ("0ms", .zero), ("86400s", .seconds(86_400)), (" 10MS ", .milliseconds(10)),
                      ("1e3ms", .seconds(1))])
    func latencies(text: String, duration: Duration) throws {
        #expect(try NetworkConditions.parseLatency(text) == duration)
    }

    @Test func badLatenciesAreUsageErrorsNamingTheOption() {
        let bad: [(String, String)] = [
            ("1e300s", "--latency must be at most 86400 seconds (one day)"),
            ("86401s", "--latency must be at most 86400 seconds (one day)"),
            ("infms", "--latency must be at most 86400 seconds (one day)"),
            ("nans", "--latency must be a number of seconds, not nan"),
            ("-5ms", "--latency must be at least 0"),
            ("50", "not a latency: '50' (use for example 50ms or 0.2s)"),
            ("", "not a latency: '' (use for example 50ms or 0.2s)"),
            ("ms", "not a latency: 'ms' (use for example 50ms or 0.2s)"),
            ("5m", "not a latency: '5m' (use for example 50ms or 0.2s)"),
            ("1\n0ms", "not a latency: '1\n0ms' (use for example 50ms or 0.2s)"),
        ]
        for (text, message) in bad {
            #expect(throws: HeadwayError(.invalidArgument, message)) {
                try NetworkConditions.parseLatency(text, name: "--latency")
            }
        }
    }

    @Test func bothOptionsTogether() throws {
        let conditions = try NetworkConditions.parsing(bandwidth: "5mbit", latency: "50ms")
        #expect(conditions == NetworkConditions(bytesPerSecond: 625_000, latency: .milliseconds(50)))
        #expect(try NetworkConditions.parsing(bandwidth: "0", latency: "0") == .none)
        #expect(throws: HeadwayError(.invalidArgument, "--latency must be at least 0")) {
            try NetworkConditions.parsing(bandwidth: "5mbit", latency: "-1s")
        }
    }
}
