import ArgumentParser
import Foundation
import Headway

// `headway har-summary FILE`: a HAR file's requests as a waterfall in the terminal.
struct HARSummaryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "har-summary",
        abstract: "Print a HAR file's requests as a waterfall: status, method, size, time and when each ran.",
        discussion: """
        Reads HAR 1.2 (from `headway load --har`, a browser's developer tools, or any tool that \
        writes it). Each page gets its title and load time, then one line per request: status \
        (--- for none), method, body size, time, a bar placing the request within the page's \
        span, and the URL; `P` after the status marks a request the booster answered from its \
        prefetch cache.

        Exit status: 0 success; 64 bad usage; 66 the file is missing, unreadable or not a HAR \
        file; 74 the output could not be written (a full disk, a closed stdout); 141 stdout's \
        reader went away (a broken pipe; nothing more is printed); 1 an internal error.
        """
    )

    @Argument(help: "The HAR file (- for stdin).")
    var file: String

    @Option(help: "Width of the waterfall bar in characters, 10 to 200.")
    var width: Int = 40

    func validate() throws {
        try Console.validating {
            guard (10...200).contains(width) else { throw HeadwayError(.invalidArgument, "--width must be 10 to 200") }
        }
    }

    func run() async throws {
        let log = try HARSummary.read(file)
        try Console.print(HARSummary.render(log, width: width))
    }
}
