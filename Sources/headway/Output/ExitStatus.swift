import ArgumentParser
import Foundation
import Headway

/// The documented exit statuses. When several failures happen in one run, the highest-ranked
/// (first in this list) decides.
enum ExitStatus: Int32, CaseIterable {
    case engineUnavailable = 69
    case scriptFileUnreadable = 66
    case usage = 64
    case loadFailed = 3
    case loadTimeout = 4
    case scriptFailed = 5
    case httpError = 6
    case internalError = 1

    init(_ error: HeadwayError) {
        switch error.code {
        case .invalidArgument: self = .usage
        case .displayUnavailable, .engine, .closed: self = .engineUnavailable
        case .loadFailed, .blockedURL, .serverFailed: self = .loadFailed
        case .timeout: self = .loadTimeout
        case .scriptError, .scriptTimeout: self = .scriptFailed
        case .httpStatus: self = .httpError
        case .fileUnreadable: self = .scriptFileUnreadable
        }
    }

    static let helpText = """
    Exit status: 0 success; 3 a load failed (unreachable host, refused connection, blocked port); \
    4 a load timed out; 5 a script threw or timed out; 6 an HTTP error status (400 or above); \
    64 bad usage or an invalid URL; 66 a script file is missing or unreadable; \
    69 no display or the engine could not start; 1 an internal error.
    """

    /// Prints one line to stderr, with terminal control sequences and line breaks taken out.
    static func report(_ message: String) {
        // On a terminal, first clear a progress line that may be showing.
        let clear = isatty(2) != 0 ? "\r\u{1B}[K" : ""
        FileHandle.standardError.write(Data("\(clear)headway: error: \(TerminalText.oneLine(message))\n".utf8))
    }

    /// Parses `--bandwidth` and `--latency`, or reports the bad one and exits with a usage error.
    static func conditions(bandwidth: String, latency: String) throws -> NetworkConditions {
        do {
            return NetworkConditions(bytesPerSecond: try NetworkConditions.parseBandwidth(bandwidth),
                                     latency: try NetworkConditions.parseLatency(latency))
        } catch let error as HeadwayError {
            report(error.description)
            throw ExitCode(usage.rawValue)
        }
    }

    static func warn(_ message: String) {
        FileHandle.standardError.write(Data("headway: warning: \(TerminalText.oneLine(message))\n".utf8))
    }
}

/// Collects failures and picks the exit status.
struct FailureLog {
    private(set) var worst: ExitStatus?

    mutating func record(_ status: ExitStatus) {
        let rank = ExitStatus.allCases.firstIndex(of: status)!
        if let worst, ExitStatus.allCases.firstIndex(of: worst)! <= rank { return }
        worst = status
    }

    func exit() throws {
        if let worst { throw ExitCode(worst.rawValue) }
    }
}
