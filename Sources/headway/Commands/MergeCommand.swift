import ArgumentParser
import Foundation
import Headway

/// `headway merge FILE...`: the outputs of several `headway load` runs (shards) as one document.
struct MergeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Combine the outputs of several `headway load` runs (e.g. --shard I/N) into one JSON document.",
        discussion: """
        Reads each FILE (- for stdin) as `headway load` wrote it, --format jsonl (one load per \
        line) or json (one document), and prints one document: {"loads":[...],"summary":[...]}. \
        The loads come in the order of the files, then of their lines. "summary" has, for every \
        URL loaded more than once across the files (one entry per URL, in the order first seen), \
        the minimum, median, p95 and maximum of each timing metric, as --repeat gives them. \
        Each input's own summary and prefetch figures are left out (they cannot be added up).

        \(ExitStatus.helpText)
        """
    )

    @Argument(help: "The outputs to merge, jsonl or json (- for stdin).")
    var files: [String]

    func validate() throws {
        try ExitStatus.validating {
            guard !files.isEmpty else { throw HeadwayError(.invalidArgument, "give at least one file to merge") }
        }
    }

    func run() async throws {
        var loads: [JSONValue] = []
        for file in files { loads += try LoadOutputs.loads(in: file) }
        try ExitStatus.print(LoadOutputs.merged(loads).text + "\n")
    }
}
