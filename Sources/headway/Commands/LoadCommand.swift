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
                     "scripts":[{"file","value"}|{"file","error"},"navigatedTo"?,"navigatedStatus"?],
                     "console":[...],"consoleTotal","consoleTruncated",
                     "errors":[...],"errorsTotal","errorsTruncated"}]}
        console and errors keep the first 10,000 entries; the totals count them all.
        With --repeat, each URL is loaded N times cold and a "summary" array follows "loads".
        A load that fails stops the run (with --urls, the batch goes on); its entry carries an
        "error" object. --format jsonl prints each load object on its own line as it completes,
        then, with --repeat or --prefetch, one last line {"summary":[...]} or {"prefetch":{...}}.
        A progress line (count, rate, ETA) goes to stderr when it is a terminal.
        With --prefetch, each load has "prefetch":{"fromCache","joined","fetched","revalidated",
        "slowestCacheAnswerMs"} and the document
        ends with "prefetch":{"linksFound","linksEligible","linksLeftOut":{<reason>:<count>,...},
        "pagesPrefetched","resourcesPrefetched","bytesPrefetched","bytesUnused","revalidated","skipped"},
        where linksFound = linksEligible + the linksLeftOut counts (README "Prefetch" lists the reasons).
        Each load lists the JavaScript dialogs its page opened, with the answers given:
          "dialogs":[{"type":"alert|confirm|prompt|beforeUnload","message","defaultText"?,"answer"}]

        \(ExitStatus.helpText)
        """
    )

    @Argument(help: "The URLs to load, in order, in one page (http, https or file).")
    var urls: [String] = []

    @Option(name: .customLong("urls"), help: "Also load the URLs in this file, one per line (- for stdin). A bad line or a failed load is reported in its own entry and the batch goes on.")
    var urlList: String?

    @Option(help: "With --urls, load this many pages at once; reports stream in completion order (default: 1).")
    var jobs: Int = 1

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

    @Flag(help: "Turn on the prefetch booster: after each load, prefetch the pages it links to (same host) and their subresources.")
    var prefetch = false

    @Option(name: .customLong("prefetch-hosts"), help: "Comma-separated extra hosts the booster may prefetch from.")
    var prefetchHosts: String?

    @Flag(name: .customLong("prefetch-all-hosts"), help: "Let the booster prefetch from every host (can break ads and analytics).")
    var prefetchAllHosts = false

    @Flag(name: .customLong("prefetch-query-strings"), help: "Let the booster prefetch links that have a query string.")
    var prefetchQueryStrings = false

    @Option(name: .customLong("cache-size"), help: "Prefetch cache size in MB (default: 64).")
    var cacheSize: Int = 64

    @Option(name: .customLong("prefetch-settle"), help: "Seconds to wait for prefetching to settle before the next URL (default: 30).")
    var prefetchSettle: Double = 30

    @Option(help: "How to answer the pages' JavaScript dialogs, which never block: dismiss (confirm() gets false, prompt() null) or accept (confirm() gets true, prompt() its default text); a beforeunload prompt always lets the page go (default: dismiss).")
    var dialogs: Dialogs = .dismiss

    enum Dialogs: String, ExpressibleByArgument, CaseIterable { case dismiss, accept }

    @Option(name: .customLong("memory-limit"), help: "Kill a page's web process once it uses more than this many MB; its load fails (exit 69) and the next URL gets a fresh process (default: no limit).")
    var memoryLimit: Int?

    @Option(help: "Output format: json (one document), jsonl (one load object per line, as each completes) or text (default: json).")
    var format: OutputFormat = .json

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable { case json, jsonl, text }

    func run() async throws {
        let inputs: LoadRunner.Inputs
        do {
            inputs = try validatedInputs()
        } catch let error as HeadwayError {
            ExitStatus.report(error.description)
            throw ExitCode(ExitStatus(error).rawValue)
        }
        let outcome = await LoadRunner.run(inputs)
        switch format {
        case .json: print(outcome.json.text)
        case .text: print(outcome.text)
        case .jsonl: if let tail = outcome.jsonlTail { print(tail.text) }
        }
        try outcome.failures.exit()
    }

    private func validatedInputs() throws -> LoadRunner.Inputs {
        guard timeout > 0 else { throw HeadwayError(.invalidArgument, "--timeout must be more than 0 seconds") }
        guard scriptTimeout > 0 else { throw HeadwayError(.invalidArgument, "--script-timeout must be more than 0 seconds") }
        guard repeatCount >= 1 else { throw HeadwayError(.invalidArgument, "--repeat must be at least 1") }
        if let screenshot, !screenshot.lowercased().hasSuffix(".png") {
            throw HeadwayError(.invalidArgument, "--screenshot must name a .png file: \(screenshot)")
        }
        if let memoryLimit, memoryLimit < 1 { throw HeadwayError(.invalidArgument, "--memory-limit must be at least 1 MB") }
        guard cacheSize > 0 else { throw HeadwayError(.invalidArgument, "--cache-size must be at least 1 MB") }
        guard prefetchSettle >= 0 else { throw HeadwayError(.invalidArgument, "--prefetch-settle cannot be negative") }
        let usesBooster = prefetch || prefetchHosts != nil || prefetchAllHosts || prefetchQueryStrings
        guard !usesBooster || prefetch else {
            throw HeadwayError(.invalidArgument, "--prefetch-hosts, --prefetch-all-hosts and --prefetch-query-strings need --prefetch")
        }
        var booster: BoosterConfiguration?
        if prefetch {
            var configuration = BoosterConfiguration()
            configuration.extraHosts = Set((prefetchHosts ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty })
            configuration.allHosts = prefetchAllHosts
            configuration.allowQueryStrings = prefetchQueryStrings
            configuration.cacheBytes = cacheSize << 20
            booster = configuration
        }
        guard jobs >= 1 else { throw HeadwayError(.invalidArgument, "--jobs must be at least 1") }
        if jobs > 1 {
            guard urlList != nil, urls.isEmpty else { throw HeadwayError(.invalidArgument, "--jobs needs --urls (URLs given as arguments load in order in one page)") }
            guard repeatCount == 1, !prefetch, screenshot == nil else {
                throw HeadwayError(.invalidArgument, "--jobs cannot be combined with --repeat, --prefetch or --screenshot")
            }
        }
        guard !urls.isEmpty || urlList != nil else {
            throw HeadwayError(.invalidArgument, "give at least one URL, or a list with --urls FILE")
        }
        var items = try urls.map { URLList.Item.url(try URLList.parse($0)) }
        if let urlList { items += try URLList.read(path: urlList) }
        let snippets = try scripts.map(Snippet.load(path:))
        var inputs = LoadRunner.Inputs(urls: items, snippets: snippets, timeout: timeout, scriptTimeout: scriptTimeout,
                                       repeatCount: repeatCount, screenshot: screenshot, showProgress: isatty(2) != 0,
                                       booster: booster, prefetchSettle: prefetchSettle)
        inputs.dialogs = dialogs == .accept ? .accept : .dismiss
        inputs.memoryLimit = memoryLimit
        inputs.keepGoing = urlList != nil
        inputs.jobs = jobs
        if format == .jsonl {
            inputs.onReport = { report in
                FileHandle.standardOutput.write(Data((report.json.text + "\n").utf8))
            }
        }
        return inputs
    }
}
