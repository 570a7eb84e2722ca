import Foundation

// The one way the CLI writes to stdout and stderr. Every write(2) is checked: stdout's first
// failure is kept (`failure`) so the command can stop and exit with its status; stderr's are
// ignored, since there is nowhere left to say anything.
enum StandardStreams {
    enum Failure: Error, Equatable {
        // The reader went away (EPIPE): the run ends quietly, as SIGPIPE would end it.
        case closedPipe
        // Any other error (ENOSPC, EBADF, EIO…), with its errno.
        case failed(Int32)

        var message: String {
            switch self {
            case .closedPipe: "cannot write the output: \(String(cString: strerror(EPIPE)))"
            case .failed(let code): "cannot write the output: \(String(cString: strerror(code)))"
            }
        }
    }

    nonisolated(unsafe) private static var stdoutWasClosed = false
    nonisolated(unsafe) private static var firstFailure: Failure?
    private static let lock = NSLock()

    // The first stdout failure, if any.
    static var failure: Failure? {
        lock.lock()
        defer { lock.unlock() }
        return firstFailure
    }

    // Call first thing: EPIPE then comes back from write(2) instead of killing the process, and
    // a closed descriptor 0, 1 or 2 is held by /dev/null, so nothing the process opens later
    // (a socket, a file) takes its number and receives the output.
    static func prepare() {
        signal(SIGPIPE, SIG_IGN)
        for fd: Int32 in 0...2 where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
            if fd == 1 { stdoutWasClosed = true }
            let null = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY)
            if null >= 0, null != fd {
                dup2(null, fd)
                close(null)
            }
        }
    }

    // Writes all of `text` to stdout, or throws (and remembers) why it could not.
    static func write(_ text: String) throws(Failure) {
        lock.lock()
        defer { lock.unlock() }
        if let firstFailure { throw firstFailure }
        if stdoutWasClosed {
            firstFailure = .failed(EBADF)
            throw .failed(EBADF)
        }
        if let error = writeAll(Array(text.utf8), to: 1) {
            let failure: Failure = error == EPIPE ? .closedPipe : .failed(error)
            firstFailure = failure
            throw failure
        }
    }

    // Writes `text` to stderr; errors are ignored.
    static func writeError(_ text: String) {
        _ = writeAll(Array(text.utf8), to: 2)
    }

    // Returns nil when every byte went out, else the errno.
    private static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Int32? {
        bytes.withUnsafeBytes { raw -> Int32? in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else if written < 0 && errno == EAGAIN {
                    // A descriptor someone else left non-blocking: wait until it takes more.
                    var entry = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&entry, 1, -1)
                } else {
                    return written < 0 ? errno : EIO
                }
            }
            return nil
        }
    }
}
