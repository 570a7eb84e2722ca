import Foundation
import HeadwayTestSupport
import Testing

/// `--help` for each command: the help on stdout, nothing on stderr, exit 0, and every option
/// of the page options listed.
@Suite("headway --help")
struct HelpTests {
    @Test(arguments: ["load", "merge", "serve", "demo", "har-summary", "cache stats", "cache clear"])
    func helpIsAllThatIsPrinted(command: String) throws {
        let output = try CLI.run(command.split(separator: " ").map(String.init) + ["--help"])
        #expect(output.status == 0)
        #expect(output.stderr.isEmpty, "\(output.stderr)")
        #expect(output.stdout.contains("USAGE: headway \(command)"))
    }

    @Test func loadListsEveryOptionOnce() throws {
        let help = try CLI.run(["load", "--help"]).stdout
        for option in ["--viewport", "--device-scale-factor", "--user-agent", "--header", "--cookie <", "--cookies",
                       "--locale", "--ignore-tls-errors", "--auth", "--proxy", "--block", "--init-script", "--wait-for",
                       "--wait-until", "--har", "--bandwidth", "--latency", "--shard", "--inspect", "--cache-dir <DIR>",
                       "--cache-dir-size"] {
            #expect(help.contains(option), "\(option) is not in load --help")
        }
        // ArgumentParser adds "(default: …)" itself: the help text must not say it again.
        let flat = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(!flat.contains(") (default:") && !flat.contains("). (default:"), "a default is shown twice")
    }
}

/// Each command's `--help` names exactly the exit statuses that command can end with. The numbers
/// come from `ExitStatus.swift` itself (its cases and `interrupted`); which of them a command can
/// reach is said here by case name, with the reason.
@Suite("headway --help: exit statuses")
struct HelpExitStatusTests {
    /// Every case of `ExitStatus` and its number, read from the source, plus `success` (0) and
    /// `interrupted` (130).
    static func statuses() throws -> [String: Int] {
        let path = CLI.packageRoot.appendingPathComponent("Sources/HeadwayCLI/Output/ExitStatus.swift")
        let source = try String(contentsOf: path, encoding: .utf8)
        var statuses = ["success": 0]
        for line in source.split(separator: "\n") {
            let words = line.split(whereSeparator: { $0 == " " || $0 == ":" })
            if words.count == 4, words[0] == "case", words[2] == "=", let number = Int(words[3]) {
                statuses[String(words[1])] = number
            } else if words.count == 6, words[2] == "interrupted", words[3] == "Int32", let number = Int(words[5]) {
                statuses["interrupted"] = number
            }
        }
        return statuses
    }

    // Every command: usage (ArgumentParser and `validate()`), stdout's failures, an internal error.
    static let everyCommand = ["usage", "outputFailed", "outputClosed", "internalError"]
    static let reachable: [String: [String]] = [
        // Loads, snippets, the engine, the inspector's port, the screenshot/HAR/cache directory, inputs.
        "load": ["success", "loadFailed", "loadTimeout", "scriptFailed", "httpError", "inputUnreadable",
                 "engineUnavailable", "serverUnavailable", "outputUnwritable"],
        // Runs until SIGINT/SIGTERM; HTTPServer's listen failure; no engine, display or input file.
        "serve": ["interrupted", "serverUnavailable"],
        // DemoRunner's loads and snippet, its server, the engine, --report's file; Ctrl-C.
        "demo": ["success", "interrupted", "loadFailed", "loadTimeout", "scriptFailed", "engineUnavailable",
                 "serverUnavailable", "outputUnwritable"],
        // CacheDirectory.stats/clear: a missing directory or a file is unreadable input.
        "cache stats": ["success", "inputUnreadable"],
        "cache clear": ["success", "inputUnreadable"],
        // TextFile and the JSON line checks.
        "merge": ["success", "inputUnreadable"],
        // HARSummary.read.
        "har-summary": ["success", "inputUnreadable"],
    ]

    /// The numbers the help gives as exit statuses: each item of its "Exit status:" list, and
    /// every "exit N" / "exits N" / "exit status N" elsewhere in it.
    static func namedStatuses(in help: String) -> Set<Int> {
        let flat = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        var found = Set<Int>()
        if let start = flat.range(of: "Exit status:") {
            let list = flat[start.upperBound...]
            let end = list.range(of: "USAGE:")?.lowerBound ?? list.endIndex
            for item in list[..<end].split(separator: ";") {
                if let number = Int(item.drop(while: { $0 == " " }).prefix(while: \.isNumber)) { found.insert(number) }
            }
        }
        for match in flat.matches(of: /exits? (?:status )?(\d+)/) {
            if let number = Int(match.1) { found.insert(number) }
        }
        return found
    }

    @Test(arguments: ["load", "serve", "demo", "cache stats", "cache clear", "merge", "har-summary"])
    func helpNamesTheExitStatusesTheCommandGives(command: String) throws {
        let statuses = try Self.statuses()
        #expect(statuses.count >= 14, "ExitStatus.swift's cases were not found: \(statuses)")
        let names = try #require(Self.reachable[command]) + Self.everyCommand
        let expected = Set(try names.map { name in try #require(statuses[name], "no ExitStatus case \(name)") })
        let help = try CLI.run(command.split(separator: " ").map(String.init) + ["--help"]).stdout
        let named = Self.namedStatuses(in: help)
        #expect(expected.subtracting(named).isEmpty,
                "\(command) --help does not name \(expected.subtracting(named).sorted())")
        #expect(named.subtracting(expected).isEmpty,
                "\(command) --help names \(named.subtracting(expected).sorted()), which it cannot give")
    }
}
