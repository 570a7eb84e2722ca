import ArgumentParser
import Foundation
import Headway

// What the CLI tells a person on the console: an error or a warning as one line on stderr, the
// output on stdout, and the end of the process for an error. The statuses come from ExitStatus.
enum Console {
    // Prints one line to stderr, with terminal control sequences and line breaks taken out.
    static func report(_ message: String) {
        // On a terminal, first clear a progress line that may be showing.
        let clear = isatty(2) != 0 ? "\r\u{1B}[K" : ""
        StandardStreams.writeError("\(clear)headway: error: \(TerminalText.oneLine(message))\n")
    }

    static func warn(_ message: String) {
        StandardStreams.writeError("headway: warning: \(TerminalText.oneLine(message))\n")
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

    // Ends the process for an error that reached the top: one line on stderr and its status
    // (`ExitStatus.code(for:)`), or, for --help, the help on stdout and 0.
    static func exit(with error: any Error) -> Never {
        let code = ExitStatus.code(for: error)
        if let error = error as? HeadwayError {
            report(error.description)
        } else if let failure = error as? StandardStreams.Failure {
            Foundation.exit(outputFailure(failure).rawValue)
        } else if code == 0 {
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
        Foundation.exit(code)
    }
}
