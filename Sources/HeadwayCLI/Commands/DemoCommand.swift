import ArgumentParser
import Foundation
import Headway

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Serve the bundled demo site at 5 Mbit/s with 50 ms latency and time an article cold, then after the "
            + "booster prefetched (and prerendered) it from the index, and in a second run from a disk cache.",
        discussion: """
        The site (an index and 10 articles of about 1 MB each) is written to a temporary directory, \
        $TMPDIR/headway-demo-PID, and removed afterwards, also after Ctrl-C.

        Exit status: 0 success; 130 after Ctrl-C (or SIGTERM); 3 a load failed; 4 a load timed \
        out; 5 the demo snippet failed; 64 bad usage; 69 no display, or the engine could not start \
        or ended; 71 the demo server could not listen; 73 the --report file could not be written; \
        74 the output could not be written (a full disk, a closed stdout); 141 stdout's reader \
        went away (a broken pipe; nothing more is printed); 1 an internal error (the site could \
        not be written).
        """
    )

    @Option(parsing: .unconditional, help: "Emulated bandwidth per connection, at most 100gbit.")
    var bandwidth: String = "5mbit"

    @Option(parsing: .unconditional, help: "Emulated latency before each first byte, at most 86400s.")
    var latency: String = "50ms"

    @Option(parsing: .unconditional, help: "Which article to load after the index, 1 to \(DemoSite.articleCount).")
    var article: Int = 3

    @Option(name: .customLong("write-site"), help: ArgumentHelp(
        "Only write the demo site into this directory (for `headway serve`) and exit."))
    var writeSite: String?

    @OptionGroup(title: "Report options")
    var reportOptions: ReportOptions

    static let snippet = Snippet(file: "demo-snippet.js", source: """
        ({ title: document.title, links: document.links.length, images: document.images.length,
           scriptRan: document.body.dataset.ready === "1" })
        """)

    func validate() throws {
        try Console.validating {
            guard (1...DemoSite.articleCount).contains(article) else {
                throw HeadwayError(.invalidArgument, "--article must be between 1 and \(DemoSite.articleCount)")
            }
            _ = try NetworkConditions.parsing(bandwidth: bandwidth, latency: latency)
            try reportOptions.check(loads: DemoRunner.loadCount)
            if writeSite != nil, reportOptions.report != nil {
                throw HeadwayError(.invalidArgument,
                                   "--write-site only writes the site: it cannot be combined with --report")
            }
        }
    }

    func run() async throws {
        let conditions = try NetworkConditions.parsing(bandwidth: bandwidth, latency: latency)
        if let writeSite {
            let files = try DemoSite.write(to: URL(fileURLWithPath: writeSite))
            note("wrote the demo site: \(files.count) files in \(writeSite)")
            return
        }
        // From here on, Ctrl-C (or SIGTERM) removes the site before the process goes.
        Interrupt.catchSignals()
        let site = TemporarySite(FileManager.default.temporaryDirectory
            .appendingPathComponent("headway-demo-\(getpid())"))
        Task {
            await Interrupt.wait()
            site.remove()
            // Straight out, WebKit's processes first (one may be busy for seconds); Xvfb goes
            // with this process.
            ChildProcesses.kill()
            _exit(ExitStatus.interrupted)
        }
        defer { site.remove() }
        let files = try site.write()
        note("wrote the demo site: \(files.count) files in \(site.directory.path)")
        let outcome = await DemoRunner.run(root: site.directory, conditions: conditions, article: article,
                                           snippet: Self.snippet, reportInterval: reportOptions.report.map { _ in
                                               reportOptions.reportInterval })
        if let error = outcome.error { throw error }
        try Console.print(outcome.table + "\n")
        if let path = reportOptions.report {
            try reportOptions.write(outcome.loads)
            note("wrote the report of its loads: \(path)")
        }
    }

    private func note(_ text: String) {
        StandardStreams.writeError("headway: \(text)\n")
    }
}

// The demo's temporary copy of the site. Writing and removing exclude each other, so an
// interrupt during the write still removes everything.
final class TemporarySite: @unchecked Sendable {
    let directory: URL
    private let lock = NSLock()
    private var removed = false

    init(_ directory: URL) {
        self.directory = directory
    }

    func write() throws -> [String] {
        lock.lock()
        defer { lock.unlock() }
        guard !removed else { return [] }
        return try DemoSite.write(to: directory)
    }

    func remove() {
        lock.lock()
        defer { lock.unlock() }
        removed = true
        try? FileManager.default.removeItem(at: directory)
    }
}
