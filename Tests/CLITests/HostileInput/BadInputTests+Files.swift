import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// Numbers in files the CLI reads: used within range, or refused with one line; never a trap.
extension BadInputTests {
    @Test func aCookieExpiringAtTheEndOfInt64IsSent() async throws {
        let server = try HeaderRecordingServer()
        defer { server.stop() }
        let file = try Fixtures.file(
            "forever-cookies.txt",
            "127.0.0.1\tFALSE\t/\tFALSE\t9223372036854775807\tkept\tyes\n"
        )
        let output = try await Task.detached {
            try CLI.run(
                ["load", server.url.absoluteString, "--cookies", file], timeout: 60, environment: ["DISPLAY": nil]
            )
        }.value
        #expect(output.status == 0, "stderr: \(output.stderr)")
        #expect(server.requestHeads.contains { $0.contains("\r\nCookie: kept=yes") }, "\(server.requestHeads)")
    }

    @Test func cacheStatsCountsAnEntryWithAHugeBodyLengthAsCorrupt() async throws {
        let directory = DiskCacheSite.newCacheDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("ab"),
            withIntermediateDirectories: true
        )
        try Data("Headway disk cache, format 1\n".utf8).write(to: directory.appendingPathComponent("headway-cache"))
        let metadata = Data(#"{"key":"http://a/","url":"http://a/","status":200,"#.utf8)
            + Data(#""headers":[],"varyValues":{},"storedAt":0,"#.utf8)
            + Data(#""lifetime":1,"bodyLength":9223372036854775807,"bodySHA256":"x"}"#.utf8)
        var length = UInt32(metadata.count).bigEndian
        let entry = Data("HWCACHE1".utf8) + Data(bytes: &length, count: 4) + metadata + Data("body".utf8)
        try entry.write(to: directory.appendingPathComponent("ab/ab00.hwc"))
        for command in ["stats", "clear"] {
            let output = try await Task.detached { try CLI.run(["cache", command, directory.path], timeout: 60) }.value
            #expect(output.status == 0, "\(command): \(output.stderr)")
            #expect(try CLI.json(output)["corrupt"] as? Int == 1, "\(command): \(output.stdout)")
        }
    }

    /// 100,000 cookies (in 1,000 domains) are set in one batch: the page's own arrive.
    @Test func aHundredThousandCookiesAreSet() async throws {
        let server = try HeaderRecordingServer()
        defer { server.stop() }
        var lines = (0..<99_950).map { "host\($0 % 1_000).example\tFALSE\t/\tFALSE\t0\tc\($0)\tv" }
        lines += (0..<50).map { "127.0.0.1\tFALSE\t/\tFALSE\t0\tmine\($0)\tv" }
        let file = try Fixtures.file("many-cookies.txt", lines.joined(separator: "\n") + "\n")
        let output = try await Task.detached {
            try CLI.run(["load", server.url.absoluteString, "--cookies", file, "--timeout", "60"], timeout: 300,
                        environment: ["DISPLAY": nil])
        }.value
        #expect(output.status == 0, "stderr: \(output.stderr)")
        let cookie = server.requestHeads.first.flatMap {
            $0.split(separator: "\r\n").first { $0.hasPrefix("Cookie: ") }
        }
        #expect(cookie?.split(separator: ";").count == 50, "\(String(describing: cookie))")
    }
}
