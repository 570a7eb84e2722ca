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
        for option in ["--viewport", "--device-scale-factor", "--user-agent", "--header", "--cookie <", "--cookies", "--locale",
                       "--ignore-tls-errors", "--auth", "--proxy", "--block", "--init-script", "--wait-for", "--wait-until",
                       "--har", "--bandwidth", "--latency", "--shard", "--inspect", "--cache-dir <DIR>", "--cache-dir-size"] {
            #expect(help.contains(option), "\(option) is not in load --help")
        }
        // ArgumentParser adds "(default: …)" itself: the help text must not say it again.
        let flat = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(!flat.contains(") (default:") && !flat.contains("). (default:"), "a default is shown twice")
    }
}
