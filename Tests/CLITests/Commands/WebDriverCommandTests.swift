import Foundation
import HeadwayTestSupport
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("headway webdriver", .serialized)
struct WebDriverCommandTests {
    // Starts `headway webdriver --port 0 extra…` and returns it with the port of its first line,
    // which must be exactly "Listening on http://127.0.0.1:PORT".
    static func start(_ extra: [String] = []) throws -> (Process, Int, Pipe) {
        let out = Pipe(), err = Pipe()
        let process = try CLI.start(["webdriver", "--port", "0"] + extra, stdout: out, stderr: err)
        let text = CLI.firstLine(of: out)
        guard let match = text.wholeMatch(of: /Listening on http:\/\/127\.0\.0\.1:(\d+)\n/),
              let port = Int(match.1) else {
            process.terminate()
            throw CLIError("headway webdriver's first line is not \"Listening on http://127.0.0.1:PORT\": \(text)")
        }
        return (process, port, err)
    }

    static func send(_ method: String, _ url: String, _ body: String? = nil) async throws -> (Int, [String: Any]) {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        request.timeoutInterval = 60
        let (data, response) = try await URLSession.shared.data(for: request)
        let json = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, json)
    }

    @Test func servesStatusAndSessionsThenSIGTERMLeavesNoProcess() async throws {
        let (process, port, _) = try Self.start(["--max-sessions", "2"])
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let base = "http://127.0.0.1:\(port)"
        let (status, ready) = try await Self.send("GET", base + "/status")
        #expect(status == 200)
        #expect((ready["value"] as? [String: Any])?["ready"] as? Bool == true)
        let (created, session) = try await Self.send("POST", base + "/session", #"{"capabilities": {}}"#)
        #expect(created == 200)
        let id = try #require((session["value"] as? [String: Any])?["sessionId"] as? String)
        let (navigated, _) = try await Self.send("POST", base + "/session/\(id)/url", #"{"url": "about:blank"}"#)
        #expect(navigated == 200)
        let (titled, title) = try await Self.send("GET", base + "/session/\(id)/title")
        #expect(titled == 200 && title["value"] as? String == "")
        let tree = descendants(of: process.processIdentifier)
        #expect(tree.values.contains { $0.hasPrefix("WebKitWebProc") }, "no web process: \(tree)")
        kill(process.processIdentifier, SIGTERM)
        let pid = process.processIdentifier
        #expect(await stillRunning([pid], after: 15).isEmpty, "headway still runs 15 s after SIGTERM")
        let left = await stillRunning(Array(tree.keys), after: 5)
        #expect(left.isEmpty, "left running: \(left.map { "\($0) \(tree[$0] ?? "")" })")
        let ended = await onOwnThread { () -> Bool in
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning, Date() < deadline { usleep(20_000) }
            return !process.isRunning
        }
        #expect(ended && process.terminationStatus == 130)
    }

    @Test func aPortInUseIsOneLineAndStatus71() async throws {
        let (process, port, _) = try Self.start(["--max-sessions", "1"])
        defer { kill(process.processIdentifier, SIGKILL) }
        let second = try CLI.run(["webdriver", "--port", String(port)], timeout: 60)
        #expect(second.status == 71)
        #expect(second.stdout.isEmpty)
        let lines = second.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines.first?.contains("could not listen on 127.0.0.1:\(port)") == true, "\(lines)")
    }

    @Test(arguments: [
        (["--port", "65536"], "--port must be between 0 and 65535"),
        (["--port", "-1"], "--port must be between 0 and 65535"),
        (["--max-sessions", "0"], "--max-sessions must be between 1 and 256"),
        (["--max-sessions", "257"], "--max-sessions must be between 1 and 256"),
        (["--warm-browsers", "-1"], "--warm-browsers must be between 0 and --max-sessions (8)"),
        (["--max-sessions", "2", "--warm-browsers", "3"], "--warm-browsers must be between 0 and --max-sessions (2)"),
        (["--session-timeout", "-1"], "--session-timeout must be between 0 and 86400 seconds"),
        (["--session-timeout", "nan"], "--session-timeout must be between 0 and 86400 seconds"),
        (["--session-timeout", "1e9"], "--session-timeout must be between 0 and 86400 seconds"),
        (["--host", ""], "--host must be an address or host name"),
        (["--host", "not an address"], "--host must be an address or host name"),
        (["--port", "http"], "--port"),
        (["--nope"], "--nope"),
    ])
    func badOptionsAreOneLineAndStatus64(arguments: [String], message: String) throws {
        let output = try CLI.run(["webdriver"] + arguments, timeout: 30)
        #expect(output.status == 64, "\(arguments): \(output.stderr)")
        #expect(output.stdout.isEmpty)
        let lines = output.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines.first?.contains(message) == true, "\(arguments): \(output.stderr)")
    }

    @Test func aHostThatIsNoAddressIsBadUsage() throws {
        let output = try CLI.run(["webdriver", "--port", "0", "--host", "no-such-host.invalid"], timeout: 60)
        #expect(output.status == 64, "\(output.stderr)")
        #expect(output.stderr.split(separator: "\n").count == 1)
    }

    @Test func helpExplainsTheOptionsAndNamesItsExitStatuses() throws {
        let output = try CLI.run(["webdriver", "--help"])
        #expect(output.status == 0 && output.stderr.isEmpty)
        for text in ["USAGE: headway webdriver", "--port", "(default: 4444)", "--host", "(default: 127.0.0.1)",
                     "--max-sessions", "(default: 8)", "--warm-browsers", "--session-timeout",
                     "Listening on http://HOST:PORT"] {
            #expect(output.stdout.contains(text), "\(text) is not in webdriver --help")
        }
        #expect(HelpExitStatusTests.namedStatuses(in: output.stdout) == [130, 64, 71, 74, 141, 1])
        let root = try CLI.run(["--help"])
        #expect(root.stdout.contains("webdriver"))
    }
}
