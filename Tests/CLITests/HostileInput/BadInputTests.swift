import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// Every bad input gets one clear line on stderr and its documented exit status, with no hang
/// and none of its processes (Xvfb, WebKit's) left behind.
@Suite("headway load with bad input", .serialized)
@EngineActor
struct BadInputTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var arguments: @Sendable (URL) throws -> [String]
        var status: Int32
        var message: String
        var reportsJSON: Bool
        /// The "status" the JSON must report, when it must report one.
        var jsonStatus: Int? = nil
        var testDescription: String { name }
    }

    nonisolated static let cases: [Case] = [
        Case(name: "invalid URL", arguments: { _ in ["load", "not a url"] },
             status: 64, message: "not a valid URL", reportsJSON: false),
        Case(name: "unsupported scheme", arguments: { _ in ["load", "ftp://127.0.0.1/x"] },
             status: 64, message: "unsupported URL scheme", reportsJSON: false),
        Case(name: "missing script file", arguments: { base in
                ["load", base.appendingPathComponent("page.html").absoluteString, "--script", "/no/such/file.js"] },
             status: 66, message: "script file not found: /no/such/file.js", reportsJSON: false),
        Case(name: "unreadable script file", arguments: { base in
                ["load", base.appendingPathComponent("page.html").absoluteString, "--script", "/tmp"] },
             status: 66, message: "script file is a directory", reportsJSON: false),
        Case(name: "unreachable host", arguments: { _ in ["load", "http://no-such-host.invalid/", "--timeout", "20"] },
             status: 3, message: "could not load http://no-such-host.invalid/", reportsJSON: true),
        Case(name: "refused connection", arguments: { _ in
                ["load", "http://127.0.0.1:\(closedPort())/", "--timeout", "20"] },
             status: 3, message: "could not load", reportsJSON: true),
        Case(name: "blocked port", arguments: { _ in ["load", "http://127.0.0.1:9/"] },
             status: 3, message: "blocked port", reportsJSON: true),
        Case(name: "load timeout", arguments: { base in
                ["load", base.appendingPathComponent("hang").absoluteString, "--timeout", "1"] },
             status: 4, message: "did not finish within 1 s", reportsJSON: true),
        Case(name: "script error", arguments: { base in
                ["load", base.appendingPathComponent("page.html").absoluteString,
                 "--script", try Fixtures.file("throw.js", "\nthrow new Error('kaput')")] },
             status: 5, message: "throw.js:2:", reportsJSON: true),
        Case(name: "script timeout", arguments: { base in
                ["load", base.appendingPathComponent("page.html").absoluteString,
                 "--script", try Fixtures.file("forever.js", "new Promise(() => {})"), "--script-timeout", "1"] },
             status: 5, message: "did not settle within 1 s", reportsJSON: true),
        Case(name: "HTTP error status", arguments: { base in
                ["load", base.appendingPathComponent("missing").absoluteString] },
             status: 6, message: "answered HTTP 404", reportsJSON: true, jsonStatus: 404),
        Case(name: "authentication required", arguments: { base in
                ["load", base.appendingPathComponent("private").absoluteString, "--timeout", "20"] },
             status: 6, message: "answered HTTP 401", reportsJSON: true, jsonStatus: 401),
        Case(name: "no content", arguments: { base in
                ["load", base.appendingPathComponent("nocontent").absoluteString, "--timeout", "20"] },
             status: 3, message: "answered 204 No Content", reportsJSON: true, jsonStatus: 204),
        Case(name: "a download", arguments: { base in
                ["load", base.appendingPathComponent("file.zip").absoluteString, "--timeout", "20"] },
             status: 3, message: "is a download (application/zip", reportsJSON: true, jsonStatus: 200),
        Case(name: "bad option value", arguments: { base in ["load", base.absoluteString, "--repeat", "0"] },
             status: 64, message: "--repeat must be at least 1", reportsJSON: false),
        Case(name: "unknown option", arguments: { base in ["load", base.absoluteString, "--bogus"] },
             status: 64, message: "Unknown option '--bogus'", reportsJSON: false),
    ] + numberCases

    /// Non-finite, huge and negative numbers: a usage error naming the option, never a trap.
    nonisolated static let numberCases: [Case] = [
        ("--timeout", "inf", "--timeout must be at most 86400 seconds"),
        ("--timeout", "1e300", "--timeout must be at most 86400 seconds"),
        ("--timeout", "nan", "--timeout must be a number of seconds, not nan"),
        ("--timeout", "-5", "--timeout must be positive"),
        ("--timeout", "0", "--timeout must be positive"),
        ("--script-timeout", "inf", "--script-timeout must be at most 86400 seconds"),
        ("--script-timeout", "-0.5", "--script-timeout must be positive"),
        ("--prefetch-settle", "inf", "--prefetch-settle must be at most 86400 seconds"),
        ("--prefetch-settle", "-1", "--prefetch-settle must be at least 0"),
        ("--jobs", "17", "--jobs must be at most 16"),
        ("--jobs", "-2", "--jobs must be at least 1"),
        ("--repeat", "-1", "--repeat must be at least 1"),
        ("--repeat", "9223372036854775807", "--repeat must be at most 10000"),
        ("--cache-size", "9223372036854775807", "--cache-size must be at most 16384 MB"),
        ("--cache-size", "-64", "--cache-size must be at least 1 MB"),
        ("--memory-limit", "4294967296", "--memory-limit must be at most 1048576 MB"),
        ("--memory-limit", "9223372036854775807", "--memory-limit must be at most 1048576 MB"),
        ("--memory-limit", "0", "--memory-limit must be at least 1 MB"),
    ].map { option, value, message in
        Case(name: "\(option) \(value)", arguments: { base in ["load", base.absoluteString, option, value] },
             status: 64, message: message, reportsJSON: false)
    }

    @Test(arguments: cases)
    func badInput(_ item: Case) async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let arguments = try item.arguments(server.url)
        let started = Date()
        let output = try await Task.detached {
            try CLI.run(arguments, timeout: 60, environment: ["DISPLAY": nil])
        }.value
        #expect(Date().timeIntervalSince(started) < 30)
        #expect(output.status == item.status, "stderr: \(output.stderr)")
        let lines = output.stderr.split(separator: "\n").filter { $0.hasPrefix("headway: error:") }
        #expect(lines.count == 1, "stderr: \(output.stderr)")
        #expect(lines.first?.contains(item.message) == true, "stderr: \(output.stderr)")
        if item.reportsJSON {
            let load = try #require((try CLI.json(output)["loads"] as? [[String: Any]])?.first)
            #expect(load["url"] as? String != nil)
            if let status = item.jsonStatus { #expect(load["status"] as? Int == status) }
            if item.status == 3 || item.status == 4 { #expect(load["error"] != nil) }
        }
        // Only this run's own processes: other runs may share the machine.
        let leftover = await onOwnThread { output.leftover() }
        #expect(leftover.isEmpty, "left running: \(leftover)")
    }

    @Test func ctrlCDuringALoadLeavesNoXvfbBehind() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        let process = Process()
        process.executableURL = try CLI.binary
        process.arguments = ["load", server.url.appendingPathComponent("hang").absoluteString, "--timeout", "60"]
        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = nil
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Wait until the load is in flight (the server saw the request), then interrupt.
        for _ in 0..<200 where server.requestCount(path: "/hang") == 0 {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(server.requestCount(path: "/hang") == 1)
        let tree = Set(descendants(of: process.processIdentifier).keys)
        #expect(descendants(of: process.processIdentifier).values.contains("Xvfb"), "its own Xvfb runs")
        kill(process.processIdentifier, SIGINT)
        await onOwnThread { process.waitUntilExit() }
        #expect(process.terminationReason == .uncaughtSignal, "status \(process.terminationStatus)")
        #expect(await stillRunning(Array(tree), after: 5).isEmpty, "left running")
    }

    /// A loopback port with nothing listening (bound once, then released).
    nonisolated static func closedPort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
