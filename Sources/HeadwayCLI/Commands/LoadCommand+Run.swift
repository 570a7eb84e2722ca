import ArgumentParser
import Foundation
import Headway

// What `load` does once its options passed `validate()`: it builds the browser's configuration
// and the run, runs it, and prints the outcome.
extension LoadCommand {
    func run() async throws {
        var outcome = try await runner().run()
        if let har {
            do {
                try HARFile.write(outcome.harLoads, to: har)
            } catch let error as HeadwayError {
                Console.report(error.description)
                outcome.failures.record(ExitStatus(error))
            }
        }
        do {
            try reportOptions.write(outcome.reportLoads)
        } catch let error as HeadwayError {
            Console.report(error.description)
            outcome.failures.record(ExitStatus(error))
        }
        // A failed write was reported when it happened (a broken pipe quietly).
        if let failure = StandardStreams.failure { throw ExitCode(ExitStatus(failure).rawValue) }
        switch format {
        case .json: try Console.print(outcome.json.text + "\n")
        case .text: try Console.print(outcome.text + "\n")
        case .jsonl: if let tail = outcome.jsonlTail { try Console.print(tail.text + "\n") }
        }
        try outcome.failures.exit()
    }

    func firstURL() throws -> URL? {
        try urls.first.map(URLList.parse)
    }

    // The browser the options ask for, whole (page options, booster, dialogs, memory limit, the
    // resources --har needs), checked by `Browser.validate`. `validate()` builds it without
    // reading files; `run()` reads the --cookies and --init-script files into it.
    func browserConfiguration(readingFiles: Bool) throws -> Browser.Configuration {
        var configuration = try page.configuration(firstURL: try firstURL(), readingFiles: readingFiles)
        if prefetch {
            var booster = BoosterConfiguration()
            booster.extraHosts = Set((prefetchHosts ?? "").split(separator: ",")
                .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty })
            booster.allHosts = prefetchAllHosts
            booster.allowQueryStrings = prefetchQueryStrings
            booster.cacheBytes = cacheSize << 20
            booster.prerender = prerender
            booster.cacheDirectory = cacheDirectory.map { URL(fileURLWithPath: $0) }
            booster.cacheDirectoryBytes = cacheDirectorySize << 20
            try prefetchOptions.apply(to: &booster, headers: configuration.extraHeaders)
            configuration.booster = booster
        }
        configuration.dialogs = dialogs == .accept ? .accept : .dismiss
        configuration.webProcessMemoryLimit = memoryLimit
        configuration.recordsResources = har != nil || reportOptions.report != nil
        try Browser.validate(configuration)
        return configuration
    }

    // The run, once `validate()` passed: the browser and the run's own settings.
    func runner() throws -> LoadRunner {
        let arguments = try urls.map { URLList.Item.url(try URLList.parse($0)) }
        let snippets = try scripts.map(Snippet.load(path:))
        let ownSnippets = try ScriptsFor.parse(scriptsFor, urlArguments: urls.count)
            .mapValues { try $0.map(Snippet.load(path:)) }
        let list = try urlList.map(URLList.open(path:))
        let shard = try sharding.parsed(list: urlList, arguments: urls)
        let waits = try waits()
        let configuration = try browserConfiguration(readingFiles: true)
        var runner = LoadRunner(configuration: configuration,
                                urls: URLFeed(arguments: arguments, list: list, shard: shard),
                                snippets: snippets, timeout: waits.timeout, scriptTimeout: waits.scriptTimeout,
                                repeatCount: repeatCount, screenshot: screenshot, showProgress: isatty(2) != 0,
                                prefetchSettle: waits.prefetchSettle, waits: page.waits,
                                keepGoing: urlList != nil, jobs: jobs)
        runner.snippetsFor = ownSnippets
        runner.warm = warm
        runner.filmstrip = filmstripOptions
        runner.filmstripDirectory = filmstrip
        runner.reportInterval = reportOptions.report == nil ? nil : reportOptions.reportInterval
        // One load writes its frames into the directory itself, as visualmetrics --dir reads them.
        runner.filmstripPerLoad = urlList != nil || arguments.count > 1 || repeatCount > 1 || warm
        // A cold start (--repeat) would drop it before the load.
        if prefetch, repeatCount == 1, !warm, jobs == 1 { runner.preload = try firstURL() }
        if format == .jsonl {
            runner.onReport = { report in
                do throws(StandardStreams.Failure) {
                    try StandardStreams.write(report.json.text + "\n")
                    return true
                } catch {
                    _ = Console.outputFailure(error)
                    return false
                }
            }
        }
        return runner
    }
}
