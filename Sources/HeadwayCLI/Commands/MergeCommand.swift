import ArgumentParser
import Foundation
import Headway

// `headway merge FILE...`: the outputs of several `headway load` runs (shards) as one document.
struct MergeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Combine the outputs of several `headway load` runs (e.g. --shard I/N) into one JSON document.",
        discussion: """
        Reads each FILE (- for stdin) as `headway load` wrote it, --format jsonl (one load per \
        line) or json (one document, a merged one too), and prints one document in the shape of \
        load's json: {"loads":[...],"summary":[...]}. "loads" holds every load as it was \
        printed, in the order of the files, then of their lines. "summary" is recomputed as \
        --repeat computes it: for each URL loaded more than once across the files (failed loads \
        count), in the order first seen, "runs" (its loads that have timing) and the min, \
        median, p95 and max of each timing metric over them; it is [] when no URL was loaded \
        twice. The inputs' own summaries are left out (recomputed), and so are their \
        run-wide "prefetch" figures and "screenshot", which belong to one process's run and do \
        not add up; each load's own "prefetch" stays. With --jobs, a shard's loads are in \
        completion order. A missing or unreadable file, a line that is not JSON, or JSON \
        that is not what headway load prints is an error naming the file and line (exit 66); \
        otherwise merge exits 0, whatever the loads' own "error" members say.

        Exit status: 0 success; 64 bad usage; 66 an input file is missing, unreadable or not \
        what headway load prints; 74 the output could not be written (a full disk, a closed \
        stdout); 141 stdout's reader went away (a broken pipe; nothing more is printed); 1 an \
        internal error.
        """
    )

    @Argument(help: "The outputs to merge, jsonl or json (- for stdin, at most once).")
    var files: [String]

    func validate() throws {
        try Console.validating {
            guard !files.isEmpty else { throw HeadwayError(.invalidArgument, "give at least one file to merge") }
            guard files.filter({ $0 == "-" }).count <= 1 else {
                throw HeadwayError(.invalidArgument, "- (stdin) can be merged only once")
            }
        }
    }

    func run() async throws {
        var loads: [LoadOutputs.Load] = []
        for file in files { loads += try LoadOutputs.loads(in: file) }
        try Console.print(LoadOutputs.merged(loads).text + "\n")
    }
}
