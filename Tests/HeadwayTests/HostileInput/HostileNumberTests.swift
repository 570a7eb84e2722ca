import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import Headway
import HeadwayTestSupport
import Testing

/// Numbers a caller or a page controls (timeouts, conditions, page-supplied figures) never trap.
@Suite("Hostile numbers", .serialized)
@EngineActor
struct HostileNumberTests {
    @Test func secondsAreCheckedAndClampedWithoutTrapping() throws {
        #expect(try TimeLimit.duration(seconds: 30, name: "--timeout") == .seconds(30))
        #expect(try TimeLimit.duration(seconds: 0, name: "--settle", allowZero: true) == .zero)
        let cases: [(Double, Bool, String)] = [
            (.infinity, false, "--timeout must be at most 86400 seconds (one day)"),
            (1e300, false, "--timeout must be at most 86400 seconds (one day)"),
            (.nan, false, "--timeout must be a number of seconds, not nan"),
            (-5, false, "--timeout must be positive"),
            (0, false, "--timeout must be positive"),
            (-1, true, "--timeout must be at least 0"),
        ]
        for (value, allowZero, message) in cases {
            #expect(throws: HeadwayError(.invalidArgument, message)) {
                try TimeLimit.duration(seconds: value, name: "--timeout", allowZero: allowZero)
            }
        }
        #expect(Duration.seconds(10_000_000).clamped == .seconds(86_400))
        #expect(Duration.seconds(-5).clamped == .zero)
        #expect(Duration.milliseconds(250).clamped == .milliseconds(250))
        #expect(Duration(clampedMilliseconds: .infinity) == .seconds(86_400))
        #expect(Duration(clampedMilliseconds: 1e300) == .seconds(86_400))
        #expect(Duration(clampedMilliseconds: -.infinity) == .zero)
        #expect(Duration(clampedMilliseconds: .nan) == .zero)
        #expect(Duration(clampedMilliseconds: 4.35) == .microseconds(4350))
        #expect(Duration.seconds(10_000_000).formatted == "86400 s")
        #expect(Duration.seconds(-1).formatted == "0 s")
        #expect(Duration.milliseconds(1500).formatted == "1.50 s")
    }

    @Test func networkConditionsBuiltDirectlyAreDescribedWithoutTrapping() throws {
        // Conditions built directly are never checked (CLIUnitTests check the CLI's parsing):
        // describing and serving with them must not trap.
        let huge = NetworkConditions(bytesPerSecond: .infinity, latency: .seconds(10_000_000))
        #expect(huge.description == "100000.00 Mbit/s, 86400000 ms latency")
    }

    @Test func aServerWithNonsenseConditionsStillAnswers() async throws {
        let conditions = NetworkConditions(bytesPerSecond: .infinity, latency: .seconds(-10_000_000))
        let server = try Fixtures.server(conditions: conditions)
        defer { server.stop() }
        let negative = try Fixtures.server(conditions: NetworkConditions(bytesPerSecond: -5, latency: .seconds(-1)))
        defer { negative.stop() }
        for base in [server.url, negative.url] {
            let (data, _) = try await URLSession.shared.data(from: base.appendingPathComponent("second.html"))
            #expect(String(decoding: data, as: UTF8.self).contains("second page"))
        }
    }

    @Test func aBrowserRefusesConditionsItCannotEmulate() {
        let cases: [(NetworkConditions, String)] = [
            (NetworkConditions(bytesPerSecond: 0),
             "the emulated bandwidth must be above 0 and at most 100 Gbit/s, not 0.0 bytes/s"),
            (NetworkConditions(bytesPerSecond: .nan),
             "the emulated bandwidth must be above 0 and at most 100 Gbit/s, not nan bytes/s"),
            (NetworkConditions(bytesPerSecond: .infinity),
             "the emulated bandwidth must be above 0 and at most 100 Gbit/s, not inf bytes/s"),
            (NetworkConditions(latency: .seconds(86_401)),
             "the emulated latency must be 0 to 86400 s, not 86401.0 seconds"),
            (NetworkConditions(latency: .seconds(-1)), "the emulated latency must be 0 to 86400 s, not -1.0 seconds"),
        ]
        for (conditions, message) in cases {
            var configuration = Browser.Configuration()
            configuration.networkConditions = conditions
            #expect(throws: HeadwayError(.invalidArgument, message)) { try Browser.validate(configuration) }
        }
        var fine = Browser.Configuration()
        fine.networkConditions = NetworkConditions(bytesPerSecond: 1, latency: .seconds(86_400))
        #expect(throws: Never.self) { try Browser.validate(fine) }
    }

    @Test func pageNumbersConvertToIntegersOnlyWhenTheyFit() {
        #expect(JSONValue.number(1e300).intValue == nil)
        #expect(JSONValue.number(.nan).intValue == nil)
        #expect(JSONValue.number(-3.7).intValue == -3)
    }

    @Test func hugeTimeoutsAndHostileNumbersFromThePageDoNotTrap() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/numbers.html", .html("""
            <!doctype html><title>numbers</title><script>
            performance.getEntriesByType = () => [{ transferSize: 1e300, encodedBodySize: Infinity }];
            window.webkit.messageHandlers.headway.postMessage(\
            '{"kind":"error","message":"m","line":1e300,"column":-1e300}');
            </script>
            """))
        try await Browser.withPage { page in
            let result = try await page.load(server.url.appendingPathComponent("numbers.html"),
                                             timeout: .seconds(Int64.max))
            #expect(result.title == "numbers")
            #expect(result.resources.transferBytes == 0)
            #expect(page.errors.contains { $0.message == "m" && $0.line == 0 })
            #expect(try await page.evaluate("6 * 7", timeout: .seconds(Int64.max)) == .number(42))
            let snippet = try await page.run(Snippet(file: "ok.js", source: "1"), timeout: .seconds(-5),
                                             navigationTimeout: .seconds(Int64.max))
            // A negative timeout counts as 0: the snippet either answered at once or timed out at once.
            #expect(snippet.value == .number(1) || snippet.error?.message.contains("within 0 s") == true)
            #expect(try await page.evaluate("document.title") == "numbers")
        }
    }
}
