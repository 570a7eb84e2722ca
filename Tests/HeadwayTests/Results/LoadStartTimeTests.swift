import Foundation
import Headway
import Testing

/// `LoadStartTime` and `HandledResource` in the JSON: what they print, and back.
@Suite("Load start times and handled resources")
struct LoadStartTimeTests {
    @Test func startTimeEncodesISO8601InUTCWithMillisecondsAndDecodesBack() throws {
        let start = LoadStartTime(wallClock: Date(timeIntervalSince1970: 1_764_104_101.123), monotonic: 81_234.567891)
        let text = String(decoding: try JSONEncoder().encode(start), as: UTF8.self)
        #expect(text.contains(#""wallClock":"2025-11-25T20:55:01.123Z""#), "\(text)")
        #expect(text.contains(#""monotonic":81234.567891"#), "\(text)")
        let back = try JSONDecoder().decode(LoadStartTime.self, from: Data(text.utf8))
        #expect(abs(back.wallClock.timeIntervalSince1970 - start.wallClock.timeIntervalSince1970) < 0.0005)
        #expect(back.monotonic == start.monotonic)
    }

    @Test func nowSetsBothClocksBackByTheElapsedTime() {
        let before = LoadStartTime.now()
        let earlier = LoadStartTime.now(minus: .seconds(2))
        let after = LoadStartTime.now()
        // Each clock is rounded: to the microsecond, and down to the millisecond.
        #expect(earlier.monotonic >= before.monotonic - 2 - 1e-6 && earlier.monotonic <= after.monotonic - 2 + 1e-6)
        let wall = earlier.wallClock.timeIntervalSince1970
        #expect(wall >= before.wallClock.timeIntervalSince1970 - 2 - 0.001)
        #expect(wall <= after.wallClock.timeIntervalSince1970 - 2 + 0.001)
    }

    @Test func handledResourcesPrintNullForUnknownTimes() throws {
        let resource = HandledResource(url: URL(string: "http://127.0.0.1:1/a.css")!, source: .joined, status: 200,
                                       startMs: 1.23456, waitMs: nil, durationMs: 2, bytes: 10)
        let text = String(decoding: try JSONEncoder().encode(resource), as: UTF8.self)
        #expect(text.contains(#""source":"joined""#) && text.contains(#""waitMs":null"#), "\(text)")
        #expect(text.contains(#""startMs":1.235"#), "\(text)")
        #expect(try JSONDecoder().decode(HandledResource.self, from: Data(text.utf8)).waitMs == nil)
    }
}
