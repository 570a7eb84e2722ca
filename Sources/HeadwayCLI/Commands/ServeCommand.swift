import ArgumentParser
import Foundation
import Headway

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a directory on 127.0.0.1 with emulated bandwidth and latency, until Ctrl-C.",
        discussion: """
        Prints "Serving DIR at http://127.0.0.1:PORT/ (CONDITIONS)" on stdout once it listens.
        Bandwidth is capped per response (so per keep-alive connection); latency delays each first byte.
        Only files inside DIR are served: a symlink that leads out of it answers 404.
        Exit status: 130 after Ctrl-C (or SIGTERM); 64 bad usage (a bad option or value, a \
        directory that cannot be served); 71 it could not listen (the port is in use or not \
        permitted); 74 the first line could not be written; 141 stdout's reader went away; 1 an \
        internal error.
        """
    )

    @Argument(help: "The directory to serve. Directories answer with their index.html.")
    var directory: String

    @Option(parsing: .unconditional, help: "The port to listen on, 0 to 65535; 0 picks a free one.")
    var port: Int = 8080

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Bandwidth per connection, such as 5mbit, 500kbit or 2MB, at most 100gbit; 0 for no cap."))
    var bandwidth: String = "0"

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Delay before each response's first byte, such as 50ms or 0.2s, at most 86400s."))
    var latency: String = "0"

    @Flag(help: "Log each request to stderr: method, path, status, bytes and time.")
    var log = false

    func validate() throws {
        try Console.validating {
            guard (0...65535).contains(port) else { throw HeadwayError(.invalidArgument, "--port must be between 0 and "
                + "65535") }
            _ = try NetworkConditions.parsing(bandwidth: bandwidth, latency: latency)
        }
    }

    func run() async throws {
        let conditions = try NetworkConditions.parsing(bandwidth: bandwidth, latency: latency)
        let root = URL(fileURLWithPath: directory)
        let log = self.log
        let url = try await Self.start(root: root, port: port, conditions: conditions, log: log)
        try Console.print("Serving \(root.path) at \(url.absoluteString) (\(conditions))\n")
        try await waitForInterrupt()
    }

    @EngineActor
    private static var running: HTTPServer?

    @EngineActor
    private static func start(root: URL, port: Int, conditions: NetworkConditions, log: Bool) throws -> URL {
        let server = try HTTPServer(root: root, port: port, conditions: conditions)
        if log {
            server.onRequest = { request in
                StandardStreams.writeError("\(TerminalText.oneLine(request.logLine))\n")
            }
        }
        running = server
        return server.url
    }

    // Suspends until SIGINT or SIGTERM, then stops the server and exits with 130.
    private func waitForInterrupt() async throws {
        await Interrupt.wait()
        await Self.stopServer()
        throw ExitCode(ExitStatus.interrupted)
    }

    @EngineActor
    private static func stopServer() {
        running?.stop()
        running = nil
    }
}

extension ServedRequest {
    // One line of `--log`: method, path, status, bytes and milliseconds.
    var logLine: String {
        "\(method) \(path) \(status) \(bytes) B \(String(format: "%.1f", duration.milliseconds)) ms"
    }
}
