import Foundation

/// Runs the built `headway` binary and captures what it prints.
public enum CLI {
    public struct Output: Sendable {
        public var status: Int32
        public var stdout: String
        public var stderr: String
        public var pid: Int32
        /// Every process seen below `headway` while it ran (sampled every 100 ms), by pid, with
        /// its command name; check after exit that none of them is still running.
        public var descendants: [Int32: String]

        /// Those of `descendants` still running after a grace of up to `seconds`.
        public func leftover(within seconds: Double = 5) -> Set<Int32> {
            let pids = Set(descendants.keys)
            _ = try? waitForBlocking("processes \(pids) to end", within: .seconds(seconds), every: .milliseconds(50),
                                     { pids.filter(isRunning) }, until: \.isEmpty)
            return pids.filter(isRunning)
        }
    }

    /// The package's root folder (where Package.swift is).
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `headway` executable next to the test bundle in the build folder.
    public static var binary: URL {
        get throws {
            var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent("headway")
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                directory.deleteLastPathComponent()
            }
            throw CLIError(
                "the headway binary is not built next to the tests; run `swift build` first (scripts/test does)"
            )
        }
    }

    /// Runs `headway arguments…` (or another copy of it, `executable`), killing it after
    /// `timeout` seconds. `environment` entries are added to (or, with nil, removed from) the
    /// current environment.
    public static func run(_ arguments: [String], timeout: Double = 120, environment: [String: String?] = [:],
                           input: String? = nil, executable: URL? = nil) throws -> Output {
        let process = Process()
        process.executableURL = try executable ?? binary
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let stdin = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        try process.run()
        if let input {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try stdin.fileHandleForWriting.close()
        }
        let collected = Collected()
        let group = DispatchGroup()
        for (pipe, isOut) in [(out, true), (err, false)] {
            group.enter()
            DispatchQueue.global().async {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                collected.set(data, stdout: isOut)
                group.leave()
            }
        }
        var seen: [Int32: String] = [:]
        var tick = 0
        do {
            try waitForBlocking("headway \(arguments.joined(separator: " ")) to finish", within: .seconds(timeout), {
                if tick % 5 == 0 { merge(descendants(of: process.processIdentifier), into: &seen) }
                tick += 1
                return process.isRunning ? "still running" : "exited"
            }, until: { $0 == "exited" })
        } catch {
            process.terminate()
            process.waitUntilExit()
            throw error
        }
        process.waitUntilExit()
        group.wait()
        let output = Output(status: process.terminationStatus, stdout: collected.stdout, stderr: collected.stderr,
                            pid: process.processIdentifier, descendants: seen)
        // `merge` prints one document of the same shape.
        if arguments.first == "load" || arguments.first == "merge" {
            let problems = schemaProblems(
                output.stdout,
                jsonl: arguments.first == "load" && arguments.contains("jsonl")
            )
            guard problems.isEmpty else {
                throw CLIError("headway \(arguments.joined(separator: " ")) printed JSON that does not match "
                    + "load-output.schema.json: \(problems.prefix(5).joined(separator: "; "))")
            }
        }
        return output
    }

    /// Checks every JSON document `headway load` (or `merge`) printed against the published schema. Output
    /// that is not JSON (text format, or cut short on purpose) is left to the test.
    public static func schemaProblems(_ stdout: String, jsonl: Bool) -> [String] {
        let documents = jsonl ? stdout.split(separator: "\n").map(String.init) : [stdout]
        return documents.flatMap { text -> [String] in
            guard let value = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
                return []
            }
            let definition = jsonl ? (value["url"] != nil ? "load" : "tail") : nil
            return JSONSchema.loadOutput.problems(value, definition: definition)
        }
    }

    /// Starts `headway arguments…` with the given standard streams (nil: /dev/null) and
    /// environment changes, without waiting for it.
    public static func start(_ arguments: [String], environment: [String: String?] = [:],
                             stdin: Any? = nil, stdout: Any? = nil, stderr: Any? = nil) throws -> Process {
        let process = Process()
        process.executableURL = try binary
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        process.standardInput = stdin ?? FileHandle.nullDevice
        process.standardOutput = stdout ?? FileHandle.nullDevice
        process.standardError = stderr ?? FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Reads `pipe` up to and with its first newline (all of it when it ends before one).
    public static func firstLine(of pipe: Pipe) -> String {
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        return String(decoding: line, as: UTF8.self)
    }

    /// Starts `headway serve root --port 0 extra…` and returns it with the URL from its first line.
    public static func serve(_ root: String, _ extra: [String] = []) throws -> (Process, URL) {
        let out = Pipe()
        let process = try start(["serve", root, "--port", "0"] + extra, stdout: out)
        let text = firstLine(of: out)
        guard
            let base = text.split(separator: " ").first(where: { $0.hasPrefix("http://127.0.0.1:") }).flatMap({
                URL(string: String($0))
            })
        else {
            process.terminate()
            throw CLIError("headway serve printed no URL: \(text)")
        }
        return (process, base)
    }

    /// Parses stdout as a JSON object.
    public static func json(_ output: Output) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any] else {
            throw CLIError("stdout is not a JSON object: \(output.stdout.prefix(200))")
        }
        return object
    }

    /// The load objects `headway load` (or `merge`) printed: a document's "loads", or the
    /// lines of jsonl that are loads (not its last {"summary"…}/{"prefetch"…} line).
    public static func loads(_ output: Output, jsonl: Bool) throws -> [[String: Any]] {
        guard jsonl else {
            guard let loads = try json(output)["loads"] as? [[String: Any]] else {
                throw CLIError("no \"loads\" array: \(output.stdout.prefix(200))")
            }
            return loads
        }
        return try output.stdout.split(separator: "\n").compactMap { line in
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw CLIError("a line that is not a JSON object: \(line.prefix(200))")
            }
            return object["url"] == nil ? nil : object
        }
    }

    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var stdout = ""
        private(set) var stderr = ""
        func set(_ data: Data, stdout isOut: Bool) {
            lock.lock()
            defer { lock.unlock() }
            if isOut {
                stdout = String(decoding: data, as: UTF8.self)
            } else {
                stderr = String(decoding: data, as: UTF8.self)
            }
        }
    }
}

public struct CLIError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// Resident memory in KiB of `pid` and its direct children (WebKit's processes and Xvfb).
public func treeResidentKiB(_ pid: Int32) -> Int {
    func rss(_ pid: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }
    var total = rss(String(pid))
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    for entry in entries where Int32(entry) != nil {
        guard let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { continue }
        let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
        if fields.count > 1, Int32(fields[1]) == pid { total += rss(entry) }
    }
    return total
}
