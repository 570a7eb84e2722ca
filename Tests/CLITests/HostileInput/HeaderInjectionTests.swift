import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// A cookie, header or User-Agent with a line break (or a NUL) is refused before anything
/// is sent: no header of the caller's making reaches the server.
@Suite("Header injection", .serialized)
struct HeaderInjectionTests {
    static let injections: [[String]] = [
        ["--cookie", "a=b\r\nX-Injected: 1"],
        ["--cookie", "a\r\nX-Injected: 1=b"],
        ["--cookie", "a=b\nX-Injected: 1"],
        ["--header", "X-Ok: b\r\nX-Injected: 1"],
        ["--user-agent", "agent\r\nX-Injected: 1"],
        ["--auth", "user:pass\r\nX-Injected: 1"],
    ]

    @Test(arguments: injections)
    func aLineBreakInACookieOrHeaderIsRefused(_ option: [String]) async throws {
        let server = try HeaderRecordingServer()
        defer { server.stop() }
        let output = try await Task.detached {
            try CLI.run(["load", server.url.absoluteString] + option, timeout: 60, environment: ["DISPLAY": nil])
        }.value
        #expect(output.status == 64, "stderr: \(output.stderr)")
        let lines = output.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("headway: error:"), "stderr: \(output.stderr)")
        #expect(!server.requestHeads.contains { $0.lowercased().contains("x-injected") }, "\(server.requestHeads)")
    }

    @Test func aCookieFileValueWithAControlCharacterIsRefused() async throws {
        let server = try HeaderRecordingServer()
        defer { server.stop() }
        let file = try Fixtures.file("injected-cookies.txt", "127.0.0.1\tFALSE\t/\tFALSE\t0\ta\tb\u{0}X-Injected: 1\n")
        let output = try await Task.detached {
            try CLI.run(
                ["load", server.url.absoluteString, "--cookies", file], timeout: 60, environment: ["DISPLAY": nil]
            )
        }.value
        #expect(output.status == 64, "stderr: \(output.stderr)")
        #expect(output.stderr.split(separator: "\n").count == 1, "stderr: \(output.stderr)")
        #expect(!server.requestHeads.contains { $0.lowercased().contains("x-injected") }, "\(server.requestHeads)")
    }

    // A ';' would end the cookie in the Cookie header and start one of the caller's making.
    @Test func aCookieFileValueWithASemicolonIsRefused() async throws {
        let server = try HeaderRecordingServer()
        defer { server.stop() }
        let file = try Fixtures.file("smuggled-cookies.txt", "127.0.0.1\tFALSE\t/\tFALSE\t0\ta\tb; admin=1\n")
        let output = try await Task.detached {
            try CLI.run(
                ["load", server.url.absoluteString, "--cookies", file], timeout: 60, environment: ["DISPLAY": nil]
            )
        }.value
        #expect(output.status == 64, "stderr: \(output.stderr)")
        #expect(output.stderr.split(separator: "\n").count == 1, "stderr: \(output.stderr)")
        #expect(!server.requestHeads.contains { $0.contains("admin=1") }, "\(server.requestHeads)")
    }

    @Test func aPlainCookieStillArrives() async throws {
        let server = try HeaderRecordingServer()
        defer { server.stop() }
        let output = try await Task.detached {
            try CLI.run(
                ["load", server.url.absoluteString, "--cookie", "a=b c"], timeout: 60, environment: ["DISPLAY": nil]
            )
        }.value
        #expect(output.status == 0, "stderr: \(output.stderr)")
        #expect(server.requestHeads.contains { $0.contains("\r\nCookie: a=b c") }, "\(server.requestHeads)")
    }

    @Test func theLibraryRefusesControlCharactersInCookies() {
        let cookies = [
            Cookie(name: "a", value: "b\r\nX-Injected: 1", domain: "127.0.0.1"),
            Cookie(name: "a\n", value: "b", domain: "127.0.0.1"),
            Cookie(name: "a", value: "b\0", domain: "127.0.0.1"),
            Cookie(name: "a", value: "b", domain: "127.0.0.1\r\n"),
            Cookie(name: "a", value: "b", domain: "127.0.0.1", path: "/\r\nX: 1"),
        ]
        for cookie in cookies {
            var configuration = Browser.Configuration()
            configuration.cookies = [cookie]
            #expect(throws: HeadwayError.self) { try Browser.validate(configuration) }
        }
        var agent = Browser.Configuration()
        agent.userAgent = "agent\0"
        #expect(throws: HeadwayError.self) { try Browser.validate(agent) }
    }
}
