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
        subcommands: [LoadCommand.self, MergeCommand.self, ServeCommand.self, DemoCommand.self, HARSummaryCommand.self, CacheCommand.self]
    )

    // ArgumentParser's `main`, with every error (bad options included) reported as one line by
    // `Console.exit(with:)`.
    static func main() async {
        StandardStreams.prepare()
        ChildProcesses.keepInheritedDescriptors()
        Interrupt.endProcessesOnSignal()
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

// The `headway` executable's entry point: the one thing of this target it uses.
package func headwayMain() async {
    await HeadwayCommand.main()
}
