import Foundation
import HeadwayTestSupport
import Testing

/// Runs the Python Selenium scenario suite (Tests/WebDriver) and the plain-HTTP error cases against
/// `headway webdriver`, then checks the server stops on SIGTERM and leaves no process behind.
@Suite("headway webdriver under Selenium", .serialized)
struct SeleniumSuiteTests {
    @Test func scenarioSuitePasses() async throws {
        try await runAgainstServer(["-m", "unittest", "discover", "-s", "Tests/WebDriver", "-p", "test_*.py", "-v"])
    }

    @Test func httpErrorCasesPass() async throws {
        try await runAgainstServer(["Tests/WebDriver/http_errors.py", "-v"])
    }

    private func runAgainstServer(_ arguments: [String]) async throws {
        let probe = try Python.run(["-c", "import selenium"], environment: [:], timeout: 60, watching: nil)
        guard probe.status == 0 else {
            Issue.record(Comment(rawValue: "python3 cannot import selenium; run scripts/setup (it installs "
                + "selenium from PyPI)\n" + probe.output))
            return
        }
        let out = Pipe()
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("webdriver-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errors) }
        let server = try CLI.start(["webdriver", "--port", "0"], environment: ["DISPLAY": nil], stdout: out,
                                   stderr: try FileHandle(forWritingTo: errors))
        defer { if server.isRunning { kill(server.processIdentifier, SIGKILL) } }
        let stderr = { (try? String(contentsOf: errors, encoding: .utf8)).map { "\nits stderr:\n\($0)" } ?? "" }
        // Bounded: a server that neither prints nor exits is killed after 120 s, which ends the read.
        let watchdog = Watchdog(after: 120, pid: server.processIdentifier)
        let line = await onOwnThread {
            String(CLI.firstLine(of: out).split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
        }
        watchdog.cancel()
        // Whatever it prints later is read and dropped, so a full pipe never blocks it.
        let rest = out.fileHandleForReading
        Thread { _ = rest.readDataToEndOfFile() }.start()
        let prefix = "Listening on "
        guard line.hasPrefix(prefix), let url = URL(string: String(line.dropFirst(prefix.count))),
              url.port != nil else {
            Issue.record(Comment(rawValue: "headway webdriver did not print `Listening on http://127.0.0.1:PORT` "
                + "first; it printed \(line.debugDescription)" + stderr()))
            return
        }
        // NGINX_URL=auto: the suite also loads its pages from a private nginx (scripts/setup installs it).
        let environment = ["WEBDRIVER_URL": url.absoluteString, "WEBDRIVER_BROWSER": "headway", "NGINX_URL": "auto"]
        let pid = server.processIdentifier
        let result = try await onOwnThread {
            Result { try Python.run(arguments, environment: environment, timeout: 1200, watching: pid) }
        }.get()
        #expect(result.status == 0, "python3 \(arguments.joined(separator: " ")) failed:\n\(result.output)\(stderr())")

        var seen = result.observed
        merge(descendants(of: pid), into: &seen)
        let children = Array(seen.keys)
        kill(pid, SIGTERM)
        try await waitForExit(of: server, within: .seconds(30))
        let left = await stillRunning(children, after: 10)
        #expect(left.isEmpty, "processes of headway webdriver still running after it exited: \(left)")
    }
}

/// Sends SIGKILL to `pid` after `seconds` unless cancelled first.
private final class Watchdog: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelled = false

    init(after seconds: Double, pid: Int32) {
        Thread { [self] in
            Thread.sleep(forTimeInterval: seconds)
            lock.lock()
            defer { lock.unlock() }
            if !cancelled { kill(pid, SIGKILL) }
        }.start()
    }

    func cancel() {
        lock.lock()
        cancelled = true
        lock.unlock()
    }
}

/// `python3` run from the package root, its standard output and error merged into one text; with
/// `watching`, the processes below that pid are sampled while it runs.
private enum Python {
    struct Output: Sendable {
        var status: Int32
        var output: String
        var observed: [Int32: String] = [:]
    }

    static func run(_ arguments: [String], environment: [String: String], timeout: Double,
                    watching: Int32?) throws -> Output {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("selenium-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let handle = try FileHandle(forWritingTo: log)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        process.currentDirectoryURL = CLI.packageRoot
        var env = ProcessInfo.processInfo.environment
        env["PYTHONDONTWRITEBYTECODE"] = "1"  // no __pycache__ in the source tree
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        var observed: [Int32: String] = [:]
        do {
            try waitForBlocking("python3 \(arguments.joined(separator: " "))", within: .seconds(timeout),
                                every: .milliseconds(250), {
                if let watching { merge(descendants(of: watching), into: &observed) }
                return process.isRunning
            }, until: { !$0 })
        } catch {
            process.terminate()
            process.waitUntilExit()
            try? handle.close()
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            return Output(status: -1, output: "timed out after \(Int(timeout)) s\n" + text, observed: observed)
        }
        process.waitUntilExit()
        try handle.close()
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return Output(status: process.terminationStatus, output: text, observed: observed)
    }
}
