import ArgumentParser
import Headway

// The documented exit statuses, and the one mapping from errors to them (Console prints the
// errors). When several failures happen in one run, the highest-ranked
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
    not permitted); 73 the screenshot, the cache directory, --har, --filmstrip or --report could \
    not be written; 74 the output could not be written (a full disk, a closed stdout); 141 stdout's \
    reader went away (a broken pipe; nothing more is printed); 1 an internal error.
    """

    // The status for any error that ends a command: a HeadwayError's, stdout's failure's, or
    // ArgumentParser's (its usage errors, an `ExitCode` a command throws, 0 for --help).
    static func code(for error: any Error) -> Int32 {
        if let error = error as? HeadwayError { return ExitStatus(error).rawValue }
        if let failure = error as? StandardStreams.Failure { return ExitStatus(failure).rawValue }
        return HeadwayCommand.exitCode(for: error).rawValue
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
