import ArgumentParser
import Foundation
import Headway

// `headway cache stats|clear DIR`: the booster's disk cache (`load --prefetch --cache-dir DIR`).
struct CacheCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Show or empty a disk cache that `headway load --prefetch --cache-dir DIR` keeps.",
        subcommands: [Stats.self, Clear.self]
    )

    static let discussion = """
    DIR must be a Headway cache: a directory holding the headway-cache file that `load --cache-dir` \
    writes into it first. Any other directory is refused (exit 64); a missing one, or a file, exits 66.
    JSON: {"entries","bytes","fresh","stale","corrupt","temporary"}: entry files and their bytes, \
    those within and past their lifetime, entry files that are cut short or do not parse (a run \
    deletes them when it comes across them), and temporary files of writes in progress or left by \
    a killed process.

    Exit status: 0 success; 64 bad usage, or a directory that is not a Headway cache; 66 the \
    directory is missing or a file; 74 the output could not be written (a full disk, a closed \
    stdout); 141 stdout's reader went away (a broken pipe; nothing more is printed); 1 an \
    internal error.
    """

    struct Options: ParsableArguments {
        @Argument(help: "The cache directory.")
        var directory: String

        @Option(help: "Output format: json or text.")
        var format: Format = .json

        enum Format: String, ExpressibleByArgument, CaseIterable { case json, text }

        var url: URL { URL(fileURLWithPath: directory) }

        func print(_ stats: CacheDirectoryStats, removed: Bool = false) throws {
            switch format {
            case .json:
                try Console.print(try OrderedJSONEncoder.encode(stats).text + "\n")
            case .text:
                try Console.print("""
                    \(removed ? "removed " : "")\(stats.entries) entries, \(TextReport.bytes(stats.bytes)) \
                    (\(stats.fresh) fresh, \(stats.stale) stale), \(stats.corrupt) corrupt, \
                    \(stats.temporary) temporary\n
                    """)
            }
        }
    }

    // `headway cache stats DIR`.
    struct Stats: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Count a disk cache's entries and bytes, fresh and stale.",
            discussion: CacheCommand.discussion
        )

        @OptionGroup var options: Options

        func run() async throws {
            try options.print(try CacheDirectory.stats(of: options.url))
        }
    }

    // `headway cache clear DIR`.
    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a disk cache's entries and temporary files (nothing else), and print what it held.",
            discussion: CacheCommand.discussion
        )

        @OptionGroup var options: Options

        func run() async throws {
            try options.print(try CacheDirectory.clear(options.url), removed: true)
        }
    }
}
