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
        """
    )

    @Argument(help: "The directory to serve. Directories answer with their index.html.")
    var directory: String

    @Option(help: "The port to listen on; 0 picks a free one (default: 8080).")
    var port: Int = 8080

    @Option(help: "Bandwidth per connection, such as 5mbit, 500kbit or 2MB; 0 for no cap (default: 0).")
    var bandwidth: String = "0"

    @Option(help: "Delay before each response's first byte, such as 50ms or 0.2s (default: 0).")
    var latency: String = "0"

    @Flag(help: "Log each request to stderr: method, path, status, bytes and time.")
    var log = false

    func run() async throws {
        let conditions = try ExitStatus.conditions(bandwidth: bandwidth, latency: latency)
        let root = URL(fileURLWithPath: directory)
        let log = self.log
        do {
            let url = try await Self.start(root: root, port: port, conditions: conditions, log: log)
            FileHandle.standardOutput.write(Data("Serving \(root.path) at \(url.absoluteString) (\(conditions))\n".utf8))
        } catch let error as HeadwayError {
            ExitStatus.report(error.description)
            throw ExitCode(error.code == .invalidArgument ? ExitStatus.usage.rawValue : ExitStatus.loadFailed.rawValue)
        }
        try await waitForInterrupt()
    }

    @EngineActor
    private static var running: HTTPServer?

    @EngineActor
    private static func start(root: URL, port: Int, conditions: NetworkConditions, log: Bool) throws -> URL {
        let server = try HTTPServer(root: root, port: port, conditions: conditions)
        if log {
            server.onRequest = { request in
                FileHandle.standardError.write(Data("\(request.logLine)\n".utf8))
            }
        }
        running = server
        return server.url
    }

    /// Suspends until SIGINT or SIGTERM, then stops the server and exits with 130.
    private func waitForInterrupt() async throws {
        await Interrupt.wait()
        await Self.stopServer()
        throw ExitCode(130)
    }

    @EngineActor
    private static func stopServer() {
        running?.stop()
        running = nil
    }
}
