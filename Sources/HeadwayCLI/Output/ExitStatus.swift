import ArgumentParser
import Foundation
import Headway

// The documented exit statuses. When several failures happen in one run, the highest-ranked
// (first in this list) decides.
enum ExitStatus: Int32, CaseIterable {
    case outputClosed = 141
    case outputFailed = 74
    case outputUnwritable = 73
    case serverUnavailable = 71
    case engineUnavailable = 69
    case inputUnreadable = 66
    case usage = 64
    case loadFailed = 3
    case loadTimeout = 4
    case scriptFailed = 5
    case httpError = 6
    case internalError = 1

    init(_ error: HeadwayError) {
        switch error.code {
        case .invalidArgument: self = .usage
        case .displayUnavailable, .engine: self = .engineUnavailable
        case .loadFailed, .blockedURL, .notAPage: self = .loadFailed
        case .timeout: self = .loadTimeout
        case .scriptError, .scriptTimeout: self = .scriptFailed
        case .httpStatus: self = .httpError
        case .fileUnreadable: self = .inputUnreadable
        case .fileUnwritable: self = .outputUnwritable
        case .serverFailed: self = .serverUnavailable
        // `.closed` in the CLI means Headway used a page after closing it: its own bug.
        default: self = .internalError
        }
    }

    // Not a failure: how `serve` and `demo` end after Ctrl-C (or SIGTERM).
    static let interrupted: Int32 = 130

    init(_ failure: StandardStreams.Failure) {
        self = failure == .closedPipe ? .outputClosed : .outputFailed
    }

    static let helpText = """
    Exit status: 0 success; 3 a load failed (unreachable host, refused connection, blocked port, \
    a response that is no page: 204, 304, a download); 4 a load timed out; 5 a script threw or \
    timed out; 6 an HTTP error status (400 or above, 401 included); 64 bad usage or an invalid URL; \
    66 an input file (a script, a URL list, a file to merge) is missing, unreadable or not what it \
    should be; 69 no display, the engine \
    could not start, the X server ended, or a page's web process or WebKit's network process \
    crashed or was killed during its load; 71 the server could not listen (the port is in use or \
    not permitted); 73 the screenshot or the cache directory could not be written; 74 the output could not be written (a \
    full disk, a closed stdout); 141 stdout's \
    reader went away (a broken pipe; nothing more is printed); 1 an internal error.
    """

    // Prints one line to stderr, with terminal control sequences and line breaks taken out.
    static func report(_ message: String) {
        // On a terminal, first clear a progress line that may be showing.
        let clear = isatty(2) != 0 ? "\r\u{1B}[K" : ""
        StandardStreams.writeError("\(clear)headway: error: \(TerminalText.oneLine(message))\n")
    }

    static func warn(_ message: String) {
        StandardStreams.writeError("headway: warning: \(TerminalText.oneLine(message))\n")
    }

    // Parses `--bandwidth` and `--latency`; a bad value throws a usage error naming its option.
    static func conditions(bandwidth: String, latency: String) throws -> NetworkConditions {
        NetworkConditions(bytesPerSecond: try NetworkConditions.parseBandwidth(bandwidth, name: "--bandwidth"),
                          latency: try NetworkConditions.parseLatency(latency, name: "--latency"))
    }

    // Writes `text` to stdout; if it cannot be written, reports why (nothing for a broken pipe)
    // and throws the exit status.
    static func print(_ text: String) throws {
        do {
            try StandardStreams.write(text)
        } catch {
            throw ExitCode(outputFailure(error).rawValue)
        }
    }

    // Reports a stdout failure once (a broken pipe quietly) and returns its status.
    static func outputFailure(_ failure: StandardStreams.Failure) -> ExitStatus {
        if failure != .closedPipe { report(failure.message) }
        return ExitStatus(failure)
    }

    // Runs a command's `validate()` checks. ArgumentParser reports any error but its own
    // ValidationError as status 1, so a HeadwayError is reported here and its status thrown.
    // ArgumentParser validates before it shows help, so with `--help` (or `-h`) nothing is
    // checked: the help is all that is asked for.
    static func validating(_ checks: () throws -> Void) throws {
        guard !CommandLine.arguments.dropFirst().contains(where: { $0 == "--help" || $0 == "-h" }) else { return }
        do {
            try checks()
        } catch let error as HeadwayError {
            report(error.description)
            throw ExitCode(ExitStatus(error).rawValue)
        }
    }

    // Ends the process for an error that reached the top: one line on stderr and its status,
    // or, for --help, the help on stdout and 0. The only place errors become exit statuses.
    static func exit(with error: Error) -> Never {
        if let error = error as? HeadwayError {
            report(error.description)
            Foundation.exit(ExitStatus(error).rawValue)
        }
        if let failure = error as? StandardStreams.Failure {
            Foundation.exit(outputFailure(failure).rawValue)
        }
        let code = HeadwayCommand.exitCode(for: error)
        if code == .success {
            let text = HeadwayCommand.fullMessage(for: error)
            do {
                if !text.isEmpty { try StandardStreams.write(text + "\n") }
            } catch {
                Foundation.exit(outputFailure(error).rawValue)
            }
        } else {
            let message = HeadwayCommand.message(for: error)
            if !message.isEmpty { report(message) }
        }
        Foundation.exit(code.rawValue)
    }
}

// Collects failures and picks the exit status.
struct FailureLog {
    private(set) var worst: ExitStatus?

    mutating func record(_ status: ExitStatus) {
        let rank = ExitStatus.allCases.firstIndex(of: status)!
        if let worst, ExitStatus.allCases.firstIndex(of: worst)! <= rank { return }
        worst = status
    }

    mutating func merge(_ other: FailureLog) {
        if let worst = other.worst { record(worst) }
    }

    func exit() throws {
        if let worst { throw ExitCode(worst.rawValue) }
    }
}
