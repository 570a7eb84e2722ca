import ArgumentParser
import Headway

// The root command; Sources/headway/main.swift runs it through `headwayMain()`.
struct HeadwayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "headway",
        abstract: "Load real pages headlessly with WebKitGTK, run JavaScript snippets in them and time the loads.",
        discussion: """
        With no DISPLAY set, headway starts a private Xvfb and stops it when it exits.
        Every error is one line on stderr, "headway: error: …", with a documented exit status.
        """,
        version: Headway.version,
        subcommands: [LoadCommand.self, MergeCommand.self, ServeCommand.self, DemoCommand.self, HARSummaryCommand.self,
                      CacheCommand.self, WebDriverCommand.self]
    )

    // Readies the process before anything else runs: see `headwayMain()`.
    static func prepare() {
        StandardStreams.prepare()
        ChildProcesses.keepInheritedDescriptors()
        Interrupt.endProcessesOnSignal()
    }

    // ArgumentParser's `main`, with every error (bad options included) reported as one line by
    // `Console.exit(with:)`. On the main thread, as the entry point of an executable is.
    @MainActor
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var command = command as? AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            Console.exit(with: error)
        }
    }
}

// The `headway` executable's entry point: the one thing of this target it uses. On the main
// actor, so that the process is readied on the main thread before anything else runs: a
// nonisolated async function would start on a thread of the global executor, whose start takes
// the lowest free descriptor for its event loop, and a closed stdout (descriptor 1) must be
// held by /dev/null first.
@MainActor
package func headwayMain() async {
    HeadwayCommand.prepare()
    await HeadwayCommand.main()
}
