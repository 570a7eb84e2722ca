import ArgumentParser
import Foundation
import Headway

struct LoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract: "Load URLs in order in one page, run snippets after each load, and report timing.",
        discussion: """
        Prints one JSON document on stdout (or a text summary with --format text):
          {"loads":[{"url","finalURL","status","title","startTime":{"wallClock","monotonic"},
                     "timing":{...},"resources":{...},
                     "scripts":[{"file","value"}|{"file","error"},"navigatedTo"?,"navigatedStatus"?],
                     "console":[...],"consoleTotal","consoleTruncated",
                     "errors":[...],"errorsTotal","errorsTruncated"}]}
        console and errors keep the first 10,000 entries; the totals count them all.
        With --repeat, each URL is loaded N times cold and a "summary" array follows "loads";
        with --warm too, N more times warm, in the same page, summarised apart ("warm":true).
        A load that fails stops the run (with --urls, the batch goes on); its entry carries an
        "error" object. --format jsonl prints each load object on its own line as it completes,
        then, with --repeat or --prefetch, one last line {"summary":[...]} or {"prefetch":{...}}.
        --urls streams: loading starts with the first line, and lines are read only a little ahead.
        A progress line (count, rate, and an ETA for URLs given as arguments) goes to stderr when
        it is a terminal. --format text takes terminal control sequences out of page text.
        With --prefetch, each load has "prefetch":{"fromCache","joined","fetched","revalidated",
        "slowestCacheAnswerMs"} and the document
        ends with "prefetch":{"linksFound","linksEligible","linksLeftOut":{<reason>:<count>,...},
        "pagesPrefetched","resourcesPrefetched","bytesPrefetched","bytesUnused","revalidated","skipped"},
        where linksFound = linksEligible + the linksLeftOut counts (README "Prefetch" lists the reasons).
        With --cache-dir, "fromCache" counts answers from memory or disk alike.
        With --prefetch (or --bandwidth, --latency), "resources" has "handled":[{"url","source":
        "cache|joined|network","status","startMs","waitMs","durationMs","bytes"}], from headway's
        own records: WebKit gives those requests no Resource Timing.
        startTime is when each load was asked for: "wallClock" ISO 8601 UTC with ms, "monotonic"
        CLOCK_MONOTONIC seconds, to match a load with a server's log.
        Each load lists the JavaScript dialogs its page opened, with the answers given:
          "dialogs":[{"type":"alert|confirm|prompt|beforeUnload","message","defaultText"?,"answer"}]

        \(ExitStatus.helpText)
        """
    )

    @Argument(help: "The URLs to load, in order, in one page (http, https or file).")
    var urls: [String] = []

    @Option(name: .customLong("urls"), help: ArgumentHelp(
        "Also load the URLs in this file, one per line (- for stdin), read as loading goes. A bad line or a failed " +
        "load is reported in its own entry and the batch goes on."))
    var urlList: String?

    @OptionGroup var sharding: Shard.Options

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "With --urls, load this many pages at once, 1 to \(Self.mostJobs); reports stream in completion order. Each " +
        "job is a web process of its own (100 MB or more), and beyond the machine's cores jobs only slow each other " +
        "down."))
    var jobs: Int = 1

    @Option(name: .customLong("script"), help: "A JavaScript file to run after each load. Repeatable; runs in order.")
    var scripts: [String] = []

    @Option(name: .customLong("script-for"), help: ArgumentHelp(
        "A JavaScript file to run after the load of the Nth URL argument only (1-based), after the --script files. " +
        "Repeatable; a URL's own files run in the order given.",
        valueName: "N:FILE"))
    var scriptsFor: [String] = []

    @OptionGroup(title: "Page options")
    var page: PageOptions

    @Option(parsing: .unconditional, help: "Seconds to wait for each load to finish, more than 0 and at most 86400.")
    var timeout: Double = 30

    @Option(name: .customLong("script-timeout"), parsing: .unconditional, help: ArgumentHelp(
        "Seconds to wait for each snippet to settle, more than 0 and at most 86400."))
    var scriptTimeout: Double = 10

    @Option(name: .customLong("repeat"), parsing: .unconditional, help: ArgumentHelp(
        "Load each URL N times cold, in a fresh view with no cached state, and summarise; 1 to \(Self.mostRepeats)."))
    var repeatCount: Int = 1

    @Flag(help: ArgumentHelp(
        "After each URL's --repeat N cold loads, load it N times more in the last cold load's page, its HTTP cache " +
        "and web process warm (a navigation to the URL, not a reload): these loads have \"warm\":true and their own " +
        "summary."))
    var warm = false

    @Option(help: "Write a PNG of the full last page, after its snippets ran (at most 32767 pixels a side).")
    var screenshot: String?

    @Option(help: ArgumentHelp(
        "Record each load's frames, from its start until the view is stable after the load event, and write them " +
        "to DIR as ms_NNNNNN.png (ms on the page's Navigation Timing clock), as browsertime and WebPageTest name " +
        "them; with more than one load, each load's in DIR/load-N (N its URL's position, then -run-R, -warm). " +
        "Implies --visual-metrics.",
        valueName: "DIR"))
    var filmstrip: String?

    @Flag(name: .customLong("visual-metrics"), help: ArgumentHelp(
        "Record each load's frames and report its visual metrics as \"visualMetrics\": first and last visual " +
        "change, Speed Index, visually complete 85/95/99 and the progress of each frame."))
    var visualMetrics = false

    @Option(name: .customLong("frame-rate"), parsing: .unconditional, help: ArgumentHelp(
        "Frames a second the filmstrip asks of the engine, \(Limits.framesPerSecond.lowerBound) to " +
        "\(Limits.framesPerSecond.upperBound) (default 10); a frame like the one before it is not kept."))
    var frameRate: Int?

    @Option(help: ArgumentHelp(
        "Write every load's requests as a HAR 1.2 file (one page per load), for a HAR viewer or `headway " +
        "har-summary`. The run keeps them in memory until it ends.",
        valueName: "FILE"))
    var har: String?

    @OptionGroup(title: "Report options")
    var reportOptions: ReportOptions

    @Flag(help: ArgumentHelp(
        "Turn on the prefetch booster: after each load, prefetch the pages it links to (same host) and their " +
        "subresources."))
    var prefetch = false

    @Option(name: .customLong("prefetch-hosts"), help: "Comma-separated extra hosts the booster may prefetch from.")
    var prefetchHosts: String?

    @Flag(name: .customLong("prefetch-all-hosts"), help: ArgumentHelp(
        "Let the booster prefetch from every host (can break ads and analytics)."))
    var prefetchAllHosts = false

    @Flag(name: .customLong("prefetch-query-strings"), help: "Let the booster prefetch links that have a query string.")
    var prefetchQueryStrings = false

    @OptionGroup(title: "Prefetch options")
    var prefetchOptions: PrefetchOptions

    @Option(name: .customLong("cache-size"), parsing: .unconditional, help: ArgumentHelp(
        "The booster's memory cache size in MB, 1 to \(Self.largestCache)."))
    var cacheSize: Int = 64

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "With --prefetch, also load the N likeliest next pages in hidden views, 0 to " +
        "\(BoosterConfiguration.mostPrerendered); loading one of them then shows it at once (\"prerendered\":true). " +
        "Each is a web process of its own.",
        valueName: "N"))
    var prerender = 0

    @Option(name: .customLong("cache-dir"), help: ArgumentHelp(
        "With --prefetch, keep the booster's cache on disk in DIR too, for later runs and other processes: a fresh " +
        "entry is served with no request, a stale one with an ETag or Last-Modified is revalidated. DIR is created " +
        "if needed; an existing one must be empty or a Headway cache. Not with --repeat. See `headway cache`.",
        valueName: "DIR"))
    var cacheDirectory: String?

    @Option(name: .customLong("cache-dir-size"), parsing: .unconditional, help: ArgumentHelp(
        "The disk cache's size in MB, 1 to \(Self.largestCache): past it, the least recently used entries are " +
        "deleted."))
    var cacheDirectorySize: Int = 256

    @Option(name: .customLong("prefetch-settle"), parsing: .unconditional, help: ArgumentHelp(
        "Seconds to wait for prefetching to settle before the next URL, 0 to 86400."))
    var prefetchSettle: Double = 30

    @Option(help: ArgumentHelp(
        "How to answer the pages' JavaScript dialogs, which never block: dismiss (confirm() gets false, prompt() " +
        "null) or accept (confirm() gets true, prompt() its default text); a beforeunload prompt always lets the " +
        "page go."))
    var dialogs: Dialogs = .dismiss

    enum Dialogs: String, ExpressibleByArgument, CaseIterable { case dismiss, accept }

    @Option(name: .customLong("memory-limit"), help: ArgumentHelp(
        "Kill a page's web process once it uses more than this many MB; its load fails (exit 69) and the next URL " +
        "gets a fresh process (default: \(Browser.defaultWebProcessMemoryLimit))."))
    var memoryLimit: Int?

    @Option(help: "Output format: json (one document), jsonl (one load object per line, as each completes) or text.")
    var format: OutputFormat = .json

    static let mostJobs = 16
    static let mostRepeats = 10_000
    static let largestCache = 16_384

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable { case json, jsonl, text }

    // The seconds of the time options, each checked and turned into a Duration, once.
    func waits() throws -> (timeout: Duration, scriptTimeout: Duration, prefetchSettle: Duration) {
        (try TimeLimit.duration(seconds: timeout, name: "--timeout"),
         try TimeLimit.duration(seconds: scriptTimeout, name: "--script-timeout"),
         try TimeLimit.duration(seconds: prefetchSettle, name: "--prefetch-settle", allowZero: true))
    }

    func validate() throws {
        try Console.validating(checks)
    }

    private func checks() throws {
        _ = try waits()
        func refuse(_ message: String) -> HeadwayError { HeadwayError(.invalidArgument, message) }
        guard (1...Self.mostRepeats).contains(repeatCount) else {
            throw refuse(repeatCount < 1 ? "--repeat must be at least 1"
                         : "--repeat must be at most \(Self.mostRepeats)")
        }
        guard (1...Self.mostJobs).contains(jobs) else {
            throw refuse(jobs < 1 ? "--jobs must be at least 1" : "--jobs must be at most \(Self.mostJobs)")
        }
        guard (1...Self.largestCache).contains(cacheSize) else {
            throw refuse(cacheSize < 1 ? "--cache-size must be at least 1 MB"
                         : "--cache-size must be at most \(Self.largestCache) MB")
        }
        if let frameRate {
            guard Limits.framesPerSecond.contains(frameRate) else {
                throw refuse("--frame-rate must be \(Limits.framesPerSecond.lowerBound) to "
                             + "\(Limits.framesPerSecond.upperBound) frames a second, not \(frameRate)")
            }
            guard filmstrip != nil || visualMetrics || reportOptions.report != nil else {
                throw refuse("--frame-rate needs --filmstrip, --visual-metrics or --report")
            }
        }
        if let screenshot, !screenshot.lowercased().hasSuffix(".png") {
            throw refuse("--screenshot must name a .png file: \(screenshot)")
        }
        if let memoryLimit, !Limits.webProcessMemory.contains(memoryLimit) {
            throw refuse(memoryLimit < 1 ? "--memory-limit must be at least 1 MB"
                         : "--memory-limit must be at most \(Limits.webProcessMemory.upperBound) MB")
        }
        guard (0...BoosterConfiguration.mostPrerendered).contains(prerender) else {
            throw refuse("--prerender must be 0 to \(BoosterConfiguration.mostPrerendered), not \(prerender)")
        }
        let usesBooster = prefetch || prefetchHosts != nil || prefetchAllHosts || prefetchQueryStrings || prerender > 0
        guard !usesBooster || prefetch else {
            throw refuse("--prefetch-hosts, --prefetch-all-hosts, --prefetch-query-strings and --prerender need "
                         + "--prefetch")
        }
        try prefetchOptions.check()
        guard !prefetchOptions.isSet || prefetch else {
            throw refuse("--prefetch-eagerness, --prefetch-budget and --prefetch-max-pages need --prefetch")
        }
        guard cacheDirectory == nil || prefetch else { throw refuse("--cache-dir needs --prefetch") }
        // Repeated loads are cold: a disk cache would answer them.
        guard cacheDirectory == nil || repeatCount == 1 else {
            throw refuse("--cache-dir cannot be combined with --repeat")
        }
        guard cacheDirectory == nil || !warm else { throw refuse("--cache-dir cannot be combined with --warm") }
        if cacheDirectory?.isEmpty == true { throw refuse("--cache-dir needs a directory") }
        guard (1...Self.largestCache).contains(cacheDirectorySize) else {
            throw refuse(cacheDirectorySize < 1 ? "--cache-dir-size must be at least 1 MB"
                         : "--cache-dir-size must be at most \(Self.largestCache) MB")
        }
        if jobs > 1 {
            guard urlList != nil, urls.isEmpty else {
                throw refuse("--jobs needs --urls (URLs given as arguments load in order in one page)")
            }
            guard repeatCount == 1, !warm, !prefetch, screenshot == nil, page.inspect == nil else {
                throw refuse("--jobs cannot be combined with --repeat, --warm, --prefetch, --screenshot or --inspect")
            }
        }
        if page.inspect != nil, repeatCount > 1 || warm {
            throw refuse("--inspect keeps the last page open; it cannot be combined with --repeat or --warm")
        }
        _ = try sharding.parsed(list: urlList, arguments: urls)
        guard !urls.isEmpty || urlList != nil else {
            throw refuse("give at least one URL, or a list with --urls FILE")
        }
        for url in urls { _ = try URLList.parse(url) }
        _ = try ScriptsFor.parse(scriptsFor, urlArguments: urls.count)
        _ = try browserConfiguration(readingFiles: false)
        try page.check(firstURL: try firstURL())
        // Before any page loads: a path that cannot be written fails the run at once.
        if let har { try OutputFile.check(har, what: "the HAR file") }
        if let screenshot { try OutputFile.check(screenshot, what: "the screenshot") }
        if let filmstrip { try OutputFile.checkDirectory(filmstrip, what: "the filmstrip's frames") }
        try reportOptions.check(loads: urlList == nil ? urls.count * repeatCount * (warm ? 2 : 1) : nil)
        // One file each: a later write would replace an earlier one.
        let outputs = [("--har", har), ("--screenshot", screenshot), ("--report", reportOptions.report)]
            .compactMap { name, path in path.map { (name, URL(fileURLWithPath: $0).standardizedFileURL.path) } }
        for (index, output) in outputs.enumerated() {
            if let same = outputs[..<index].first(where: { $0.1 == output.1 }) {
                throw refuse("\(same.0) and \(output.0) name the same file: \(output.1)")
            }
        }
    }

    // What --filmstrip, --visual-metrics, --report and --frame-rate ask of each load, or nil.
    var filmstripOptions: FilmstripOptions? {
        let keepsFrames = filmstrip != nil || reportOptions.report != nil
        guard keepsFrames || visualMetrics else { return nil }
        return FilmstripOptions(framesPerSecond: frameRate ?? 10, keepsFrames: keepsFrames)
    }
}
