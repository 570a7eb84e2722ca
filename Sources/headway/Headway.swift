import ArgumentParser

@main
struct HeadwayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "headway",
        abstract: "Load real pages headlessly with WebKitGTK, run JavaScript snippets in them and time the loads.",
        discussion: """
        With no DISPLAY set, headway starts a private Xvfb and stops it when it exits.
        """,
        subcommands: [LoadCommand.self, ServeCommand.self, DemoCommand.self]
    )
}
