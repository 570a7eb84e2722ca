import ArgumentParser
import Foundation
import Headway

// `headway load`'s options for what the pages see and send: viewport, identity, headers,
// cookies, TLS, authentication, proxy, blocked requests, init scripts, and what a load waits for.
struct PageOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The viewport in CSS pixels, each side 1 to \(Limits.viewportSide.upperBound) (default: 1280x1024).",
        valueName: "WxH"))
    var viewport: String?

    @Option(name: .customLong("device-scale-factor"), parsing: .unconditional, help: ArgumentHelp(
        "Device pixels per CSS pixel (window.devicePixelRatio): 1, 2, 3 or 4."))
    var deviceScaleFactor: Int = 1

    @Option(name: .customLong("user-agent"), help: "The User-Agent header and navigator.userAgent (default: WebKit's).")
    var userAgent: String?

    @Option(name: .customLong("header"), help: ArgumentHelp(
        "A header sent with every request of the pages, replacing one of the same name. Repeatable.",
        valueName: "Name: value"))
    var headers: [String] = []

    @Option(name: .customLong("cookie"), help: ArgumentHelp(
        "A cookie set before the first load, for the first URL argument's host. Repeatable.",
        valueName: "NAME=VALUE"))
    var cookies: [String] = []

    @Option(name: .customLong("cookies"), help: ArgumentHelp(
        "Cookies set before the first load, from a Netscape cookies.txt (as curl and wget read and write)."))
    var cookieFile: String?

    @Option(help: ArgumentHelp(
        "The language the pages are asked in: Accept-Language and navigator.language, e.g. fr-FR (default: en-US). " +
        "JavaScript's Intl follows the process's LANG."))
    var locale: String?

    @Flag(name: .customLong("ignore-tls-errors"), help: ArgumentHelp(
        "Accept any TLS certificate (self-signed, expired, another host's). Without it such a certificate fails the " +
        "load."))
    var ignoreTLSErrors = false

    @Flag(name: .customLong("no-compositing"), help: ArgumentHelp(
        "Draw pages in one software pass instead of WebKit's accelerated compositing: less CPU a load, for jobs that " +
        "read pages rather than look at them. 3D transforms are drawn flat (docs/performance.md)."))
    var noCompositing = false

    @Option(help: ArgumentHelp(
        "Answer HTTP authentication (Basic or Digest, server or proxy) once with these credentials; a refused answer " +
        "lets the 401 page load.",
        valueName: "USER:PASS"))
    var auth: String?

    @Option(help: "Send every request through this proxy: http://host:port, https://…, socks5://host:port.")
    var proxy: String?

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Emulate this bandwidth for every request of the pages, whatever the server: such as 5mbit, 500kbit or 2MB, " +
        "at most 100gbit, per request, on the body as decoded; 0 for no cap."))
    var bandwidth: String = "0"

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Emulate this latency before every request of the pages is sent, such as 50ms or 0.2s, at most 86400s."))
    var latency: String = "0"

    @Option(name: .customLong("block"), help: ArgumentHelp(
        "Keep requests whose whole URL matches this glob off the network (* any characters, ? one), e.g. " +
        "'*/analytics.js' or '*://*.doubleclick.net/*'. Repeatable; each load counts them in resources.blocked.",
        valueName: "PATTERN"))
    var blocked: [String] = []

    @Option(name: .customLong("init-script"), help: ArgumentHelp(
        "A JavaScript file run in every frame at document start, before the page's own scripts. Repeatable; runs in " +
        "order."))
    var initScripts: [String] = []

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Serve WebKit's remote inspector on http://127.0.0.1:PORT and, after the last load and its snippets, keep " +
        "the page open until Ctrl-C or SIGTERM (then print the results and exit 0), so that a person can open that " +
        "address in a browser (a WebKit-based one works best: Epiphany, MiniBrowser) and inspect it.",
        valueName: "PORT"))
    var inspect: Int?

    @Option(name: .customLong("wait-for"), help: ArgumentHelp(
        "After each load, wait until an element matches this CSS selector (bounded by --timeout) before the snippets " +
        "run; none is a timeout (exit 4).",
        valueName: "SELECTOR"))
    var waitFor: String?

    @Option(name: .customLong("wait-for-text"), help: ArgumentHelp(
        "After each load, wait until the page's visible text contains TEXT (bounded by --timeout) before the " +
        "snippets run; its absence is a timeout (exit 4).",
        valueName: "TEXT"))
    var waitForText: String?

    @Option(name: .customLong("wait-for-function"), help: ArgumentHelp(
        "After each load, wait until this JavaScript expression, evaluated in the page every 50 ms (a promise is " +
        "awaited), is truthy (bounded by --timeout) before the snippets run; never truthy is a timeout (exit 4), " +
        "a throw a script error (exit 5).",
        valueName: "EXPR"))
    var waitForFunction: String?

    @Option(name: .customLong("wait-for-network-idle"), parsing: .unconditional, help: ArgumentHelp(
        "After each load, wait until no request has been in flight for MS milliseconds, 1 to 86400000 (bounded by " +
        "--timeout) before the snippets run; a network never that quiet is a timeout (exit 4).",
        valueName: "MS"))
    var waitForNetworkIdle: Int?

    @Option(name: .customLong("wait-until"), help: ArgumentHelp(
        "When a load is done and its snippets run: load (the load event), domcontentloaded (DOMContentLoaded; the " +
        "load event may not have come) or networkidle (the load event, then no request in flight for 500 ms), " +
        "bounded by --timeout."))
    var waitUntil: WaitUntil = .load

    static let longestQuiet = Int(Limits.longestWait.components.seconds) * 1000

    // What each load waits for, as the runner takes it.
    var waits: PageWaits {
        PageWaits(until: waitUntil, selector: waitFor, text: waitForText, function: waitForFunction,
                  networkQuiet: waitForNetworkIdle.map { .milliseconds($0) })
    }

    enum WaitUntil: String, ExpressibleByArgument, CaseIterable { case load, domcontentloaded, networkidle }

    // The checks of these options that `Browser.validate` does not make (the command checks the
    // configuration they give); `firstURL` is the first URL argument.
    func check(firstURL: URL?) throws {
        if !cookies.isEmpty, firstURL?.host == nil {
            throw HeadwayError(.invalidArgument, "--cookie sets a cookie for the first URL argument's host, and there "
                + "is none: give a URL argument or use --cookies FILE")
        }
        if let waitFor, waitFor.trimmingCharacters(in: .whitespaces).isEmpty {
            throw HeadwayError(.invalidArgument, "--wait-for needs a CSS selector")
        }
        if waitForText?.isEmpty == true { throw HeadwayError(.invalidArgument, "--wait-for-text needs some text") }
        if let waitForFunction, waitForFunction.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw HeadwayError(.invalidArgument, "--wait-for-function needs a JavaScript expression")
        }
        if let quiet = waitForNetworkIdle, !(1...Self.longestQuiet).contains(quiet) {
            throw HeadwayError(.invalidArgument, "--wait-for-network-idle must be 1 to \(Self.longestQuiet) ms, not "
                + "\(quiet)")
        }
    }

    // A configuration with these options, not yet checked (`Browser.validate`); reads --cookies
    // and --init-script files when `readingFiles` (throwing `.fileUnreadable` for one it cannot read).
    func configuration(firstURL: URL?, readingFiles: Bool = true) throws -> Browser.Configuration {
        var configuration = Browser.Configuration()
        if let viewport {
            let sides = viewport.lowercased().split(separator: "x", omittingEmptySubsequences: false)
            guard sides.count == 2, let width = Int(sides[0]), let height = Int(sides[1]) else {
                throw HeadwayError(.invalidArgument, "--viewport must be WIDTHxHEIGHT, e.g. 1280x1024, not "
                    + "\(viewport.debugDescription)")
            }
            (configuration.viewportWidth, configuration.viewportHeight) = (width, height)
        }
        configuration.deviceScaleFactor = deviceScaleFactor
        configuration.userAgent = userAgent
        configuration.extraHeaders = try headers.map { line in
            guard let colon = line.firstIndex(of: ":") else {
                throw HeadwayError(.invalidArgument, "--header must be \"Name: value\", not \(line.debugDescription)")
            }
            return (String(line[..<colon]).trimmingCharacters(in: .whitespaces),
                    String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
        }
        if let host = firstURL?.host {
            configuration.cookies = try cookies.map { pair in
                guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                    throw HeadwayError(.invalidArgument, "--cookie must be NAME=VALUE, not \(pair.debugDescription)")
                }
                return Cookie(name: String(pair[..<equals]), value: String(pair[pair.index(after: equals)...]),
                              domain: host)
            }
        }
        if readingFiles, let cookieFile {
            let text = try TextFile.read(cookieFile, what: "cookies file")
            configuration.cookies += try Cookie.parseNetscape(text, source: cookieFile)
        }
        configuration.locale = locale
        configuration.ignoreTLSErrors = ignoreTLSErrors
        configuration.acceleratedCompositing = !noCompositing
        if let auth {
            guard let colon = auth.firstIndex(of: ":") else { throw HeadwayError(.invalidArgument, "--auth must be "
                + "USER:PASS") }
            configuration.credentials = Browser.Credentials(user: String(auth[..<colon]),
                                                            password: String(auth[auth.index(after: colon)...]))
        }
        if let proxy {
            guard let url = URL(string: proxy) else { throw HeadwayError(.invalidArgument, "--proxy is not a URL: "
                + "\(proxy)") }
            configuration.proxy = url
        }
        configuration.blockedURLPatterns = blocked
        configuration.inspectorPort = inspect
        let conditions = try NetworkConditions.parsing(bandwidth: bandwidth, latency: latency)
        configuration.networkConditions = conditions == .none ? nil : conditions
        if readingFiles {
            // Named by their paths in the errors they throw.
            configuration.initScripts = try initScripts.map { path in
                try TextFile.read(path, what: "init script") + "\n//# sourceURL=\(path)"
            }
        }
        return configuration
    }
}
