import ArgumentParser
import Foundation
import Headway

struct LoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract: "Load URLs in order in one page, run snippets after each load, and report timing.",
        discussion: """
        Prints one JSON document on stdout (or a text summary with --format text):
          {"loads":[{"url","finalURL","status","title","timing":{...},"resources":{...},
                     "scripts":[{"file","value"}|{"file","error"}],"console":[...],"errors":[...]}]}
        With --repeat, each URL is loaded N times cold and a "summary" array follows "loads".
        A load that fails stops the run; its entry carries an "error" object.

        \(ExitStatus.helpText)
        """
    )

    @Argument(help: "The URLs to load, in order, in one page (http, https or file).")
    var urls: [String]

    @Option(name: .customLong("script"), help: "A JavaScript file to run after each load. Repeatable; runs in order.")
    var scripts: [String] = []

    @Option(help: "Seconds to wait for each load to finish (default: 30).")
    var timeout: Double = 30

    @Option(name: .customLong("script-timeout"), help: "Seconds to wait for each snippet to settle (default: 10).")
    var scriptTimeout: Double = 10

    @Option(name: .customLong("repeat"), help: "Load each URL N times cold, in a fresh view with no cached state, and summarise (default: 1).")
    var repeatCount: Int = 1

    @Option(help: "Write a PNG of the full last page, after its snippets ran.")
    var screenshot: String?

    @Option(help: "Output format: json or text (default: json).")
    var format: OutputFormat = .json

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable { case json, text }

    func run() async throws {
        let inputs: LoadRunner.Inputs
        do {
            inputs = try validatedInputs()
        } catch let error as HeadwayError {
            ExitStatus.report(error.description)
            throw ExitCode(ExitStatus(error).rawValue)
        }
        let outcome = await LoadRunner.run(inputs)
        print(format == .json ? outcome.json.text : outcome.text)
        try outcome.failures.exit()
    }

    private func validatedInputs() throws -> LoadRunner.Inputs {
        guard timeout > 0 else { throw HeadwayError(.invalidArgument, "--timeout must be more than 0 seconds") }
        guard scriptTimeout > 0 else { throw HeadwayError(.invalidArgument, "--script-timeout must be more than 0 seconds") }
        guard repeatCount >= 1 else { throw HeadwayError(.invalidArgument, "--repeat must be at least 1") }
        if let screenshot, !screenshot.lowercased().hasSuffix(".png") {
            throw HeadwayError(.invalidArgument, "--screenshot must name a .png file: \(screenshot)")
        }
        let parsed = try urls.map(Self.parseURL)
        let snippets = try scripts.map(Snippet.load(path:))
        return LoadRunner.Inputs(urls: parsed, snippets: snippets, timeout: timeout, scriptTimeout: scriptTimeout,
                                 repeatCount: repeatCount, screenshot: screenshot, showProgress: isatty(2) != 0)
    }

    static func parseURL(_ text: String) throws -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
            throw HeadwayError(.invalidArgument, "not a valid URL: '\(text)' (give a full URL such as http://127.0.0.1:8080/)")
        }
        switch scheme {
        case "http", "https":
            guard let host = url.host, !host.isEmpty else {
                throw HeadwayError(.invalidArgument, "not a valid URL: '\(text)' has no host")
            }
        case "file", "about", "data":
            break
        default:
            throw HeadwayError(.invalidArgument, "unsupported URL scheme '\(scheme)' in '\(text)' (use http, https or file)")
        }
        return url
    }
}
