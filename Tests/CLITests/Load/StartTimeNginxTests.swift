import Foundation
import HeadwayTestSupport
import Testing

/// Each load's `startTime` matches the server's log: the wall clock of the load's start comes
/// before nginx logged the page's request, and CLOCK_MONOTONIC lies within the run.
@Suite("headway load start times behind nginx", .serialized)
struct StartTimeNginxTests {
    static func monotonic() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    @Test func eachLoadsStartMatchesNginxsLog() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("headway-start-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        for name in ["one", "two"] {
            try Data("<!doctype html><title>\(name)</title><p>\(name)".utf8)
                .write(to: root.appendingPathComponent("\(name).html"))
        }
        let nginx = try NginxServer(root: root)
        defer { nginx.stop() }
        let before = Self.monotonic()
        let wallBefore = Date().timeIntervalSince1970
        let output = try CLI.run(["load", nginx.url.appendingPathComponent("one.html").absoluteString,
                                  nginx.url.appendingPathComponent("two.html").absoluteString])
        let after = Self.monotonic()
        #expect(output.status == 0, "\(output.stderr)")
        let loads = try CLI.loads(output, jsonl: false)
        let requests = nginx.waitForRequests(count: 2)
        var previous = before
        for (load, name) in zip(loads, ["one", "two"]) {
            let start = try #require(load["startTime"] as? [String: Any])
            let text = try #require(start["wallClock"] as? String)
            #expect(text.hasSuffix("Z") && text.count == 24, "\(text)")
            let wall = try Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
                .timeIntervalSince1970
            let logged = try #require(requests.first { $0.path == "/\(name).html" })
            // Both clocks are cut to the millisecond.
            #expect(wall >= wallBefore - 0.001 && wall <= logged.time + 0.001, "\(text) vs \(logged.time)")
            let monotonic = try #require(start["monotonic"] as? Double)
            #expect(monotonic >= previous && monotonic <= after, "\(monotonic) in \(previous)...\(after)")
            previous = monotonic
        }
    }
}
