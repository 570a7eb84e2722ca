import ArgumentParser
import Headway
@testable import HeadwayCLI
import Testing

/// The one mapping from errors to exit statuses, and the ranking that picks one of several.
@Suite("exit statuses")
struct ExitStatusTests {
    @Test func eachHeadwayErrorCodeHasItsStatus() {
        let expected: [(HeadwayError.Code, Int32)] = [
            (.invalidArgument, 64), (.displayUnavailable, 69), (.engine, 69), (.loadFailed, 3), (.blockedURL, 3),
            (.notAPage, 3), (.timeout, 4), (.scriptError, 5), (.scriptTimeout, 5), (.httpStatus, 6),
            (.fileUnreadable, 66), (.fileUnwritable, 73), (.serverFailed, 71), (.closed, 1),
            (HeadwayError.Code(rawValue: "someFutureCode"), 1),
        ]
        for (code, status) in expected {
            #expect(ExitStatus(HeadwayError(code, "x")).rawValue == status, "\(code)")
            #expect(ExitStatus.code(for: HeadwayError(code, "x")) == status, "\(code)")
        }
    }

    @Test func stdoutFailures() {
        #expect(ExitStatus(StandardStreams.Failure.closedPipe) == .outputClosed)
        #expect(ExitStatus(StandardStreams.Failure.failed(28)) == .outputFailed)
        #expect(ExitStatus.code(for: StandardStreams.Failure.closedPipe) == 141)
        #expect(ExitStatus.code(for: StandardStreams.Failure.failed(5)) == 74)
    }

    @Test func argumentParsersErrors() throws {
        #expect(ExitStatus.code(for: ValidationError("bad")) == 64)
        #expect(ExitStatus.code(for: ExitCode(130)) == 130)
        #expect(ExitStatus.code(for: ExitCode(ExitStatus.loadTimeout.rawValue)) == 4)
        #expect(ExitStatus.code(for: CleanExit.helpRequest()) == 0)
        do {
            _ = try HeadwayCommand.parseAsRoot(["load", "--no-such-option"])
            Issue.record("an unknown option parsed")
        } catch {
            #expect(ExitStatus.code(for: error) == 64)
        }
        do {
            _ = try HeadwayCommand.parseAsRoot(["--version"])
            Issue.record("--version parsed as a command")
        } catch {
            #expect(ExitStatus.code(for: error) == 0)
        }
    }

    @Test func anyOtherErrorIsAnInternalError() {
        struct Unexpected: Error {}
        #expect(ExitStatus.code(for: Unexpected()) == 1)
        #expect(ExitStatus.code(for: CancellationError()) == 1)
    }

    @Test func statusesAreDistinctAndDocumented() {
        let codes = ExitStatus.allCases.map(\.rawValue)
        #expect(Set(codes).count == codes.count)
        #expect(!codes.contains(0) && !codes.contains(ExitStatus.interrupted))
        for code in codes + [0, ExitStatus.interrupted] where code != 141 && code != 130 {
            #expect(ExitStatus.helpText.contains(" \(code) "), "\(code) is not in the help")
        }
    }

    @Test func theHighestRankedFailureDecides() throws {
        var log = FailureLog()
        #expect(log.worst == nil)
        #expect(throws: Never.self) { try log.exit() }
        log.record(.internalError)
        #expect(log.worst == .internalError)
        log.record(.httpError)
        log.record(.loadFailed)
        #expect(log.worst == .loadFailed)
        log.record(.httpError)
        #expect(log.worst == .loadFailed)
        var other = FailureLog()
        other.record(.usage)
        log.merge(other)
        #expect(log.worst == .usage)
        log.merge(FailureLog())
        #expect(log.worst == .usage)
        log.record(.outputClosed)
        #expect(log.worst == .outputClosed)
        #expect(throws: ExitCode(141)) { try log.exit() }
        // Every order of the same failures picks the same status.
        let all = ExitStatus.allCases
        for rotation in 0..<all.count {
            var rotated = FailureLog()
            for status in all[rotation...] + all[..<rotation] { rotated.record(status) }
            #expect(rotated.worst == .outputClosed)
        }
    }
}
