import ArgumentParser
import Foundation
import Headway
import HeadwayWebDriver

struct WebDriverCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webdriver",
        abstract: "Serve W3C WebDriver (as geckodriver and WebKitWebDriver do) on Headway, until Ctrl-C.",
        discussion: """
        Prints "Listening on http://HOST:PORT" on stdout once it listens. Point any WebDriver client \
        at that URL (Selenium: webdriver.Remote(command_executor=URL, options=...); browserName \
        "headway" or none). Each session has a browser of its own: cookies, storage and cache never \
        pass between sessions. Sessions with no "headway:options" start from browsers kept warm.
        On a loopback address, requests must name the server by an IP address or localhost (Host) \
        and may not come from a web page (Origin) other than the server's own: a defence against DNS rebinding.
        Ctrl-C or SIGTERM ends every session and every process headway started.
        Exit status: 130 after Ctrl-C (or SIGTERM); 64 bad usage; 71 it could not listen (the port \
        is in use or not permitted); 74 the first line could not be written; 141 stdout's reader \
        went away; 1 an internal error.
        """
    )

    @Option(parsing: .unconditional, help: "The port to listen on, 0 to 65535; 0 picks a free one.")
    var port: Int = 4444

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "The address to listen on: 127.0.0.1 (only this machine), ::1, localhost, or 0.0.0.0 for every "
            + "interface (for a Selenium Grid node on another machine)."))
    var host: String = "127.0.0.1"

    @Option(name: .customLong("max-sessions"), parsing: .unconditional, help: ArgumentHelp(
        "Sessions at once, 1 to 256; New Session beyond that fails with \"session not created\". "
            + "Each session has a web process of its own (about 100 MB)."))
    var maxSessions: Int = 8

    @Option(name: .customLong("warm-browsers"), parsing: .unconditional, help: ArgumentHelp(
        "Browsers kept started for New Session, 0 to --max-sessions (default: "
            + "\(WebDriverService.Options.standardWarmBrowsers), at most --max-sessions); "
            + "up to twice as many while sessions come faster than they start. Each one idle holds a web and a "
            + "network process (about 90 MB proportional, 285 MB resident); 0 starts each session's browser "
            + "when it is asked for."))
    var warmBrowsers: Int?

    @Option(name: .customLong("session-timeout"), parsing: .unconditional, help: ArgumentHelp(
        "Seconds a session may go without a command before it is deleted, at most 86400; 0 keeps sessions "
            + "until they are deleted (as geckodriver does: Selenium Grid ends idle sessions itself)."))
    var sessionTimeout: Double = 0

    @Flag(name: .customLong("no-compositing"), help: ArgumentHelp(
        "Sessions draw pages in one software pass instead of WebKit's accelerated compositing, warm browsers "
            + "included: less CPU a session; no 3D transforms (docs/performance.md). A session's "
            + "\"headway:options\" {\"compositing\": true} turns it back on for that session."))
    var noCompositing = false

    func validate() throws {
        try Console.validating {
            guard (0...65535).contains(port) else {
                throw HeadwayError(.invalidArgument, "--port must be between 0 and 65535")
            }
            guard !host.isEmpty, !host.contains(where: { $0.isWhitespace || $0 == "/" }) else {
                throw HeadwayError(.invalidArgument, "--host must be an address or host name, such as 127.0.0.1")
            }
            guard (1...256).contains(maxSessions) else {
                throw HeadwayError(.invalidArgument, "--max-sessions must be between 1 and 256")
            }
            if let warmBrowsers, !(0...maxSessions).contains(warmBrowsers) {
                throw HeadwayError(.invalidArgument,
                                   "--warm-browsers must be between 0 and --max-sessions (\(maxSessions))")
            }
            guard sessionTimeout.isFinite, (0...86_400).contains(sessionTimeout) else {
                throw HeadwayError(.invalidArgument, "--session-timeout must be between 0 and 86400 seconds")
            }
        }
    }

    func run() async throws {
        Interrupt.catchSignals()
        var options = WebDriverService.Options()
        options.maxSessions = maxSessions
        options.warmBrowsers = warmBrowsers ?? min(WebDriverService.Options.standardWarmBrowsers, maxSessions)
        options.sessionTimeout = sessionTimeout > 0 ? .milliseconds(Int64(sessionTimeout * 1000)) : nil
        options.acceleratedCompositing = !noCompositing
        // Listening first: a port in use or a bad host ends the run before any engine starts.
        let box = ServiceBox()
        let bidi = BiDiEndpoint { box.service }
        let server = try WebDriverHTTPServer(host: host, port: port, webSocket: bidi) { method, path, body in
            guard let service = box.service else {
                return (503, WebDriverError(.unknownError, "the server is starting: try again").body)
            }
            return await service.handle(method: method, path: path, body: body)
        }
        let shown = host.contains(":") ? "[\(host)]" : host
        options.webSocketBase = "ws://\(shown):\(server.port)"
        let service = await WebDriverServing.start(options)
        box.service = service
        try Console.print("Listening on http://\(shown):\(server.port)\n")
        await Interrupt.wait()
        server.stop()
        await service.shutdown()
        await Self.endOnEngineThread()
    }

    // Closed pages end their web processes; whatever WebKit still runs goes now, from the engine
    // thread, and headway with it: WebKit aborts (SIGTRAP) when a process it is starting there (a
    // warm browser's) dies before it reads its pid, so the kill must not run beside that start.
    @EngineActor
    private static func endOnEngineThread() -> Never {
        ChildProcesses.kill()
        fflush(nil)
        _exit(ExitStatus.interrupted)
    }
}

// The service once it is made, for the connections' threads.
private final class ServiceBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: WebDriverService?
    var service: WebDriverService? {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}

// The service is made on the engine thread, which owns its browsers.
@EngineActor
private enum WebDriverServing {
    static func start(_ options: WebDriverService.Options) -> WebDriverService {
        WebDriverService(options: options)
    }
}
