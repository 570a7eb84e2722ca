import Foundation
import Headway

// Files the CLI writes (--har, --screenshot), checked before any page loads and written as
// `curl -o` writes: a regular file (or none yet) is replaced whole, through a temporary file
// renamed over it; a device, a FIFO or a symbolic link is opened and written through, never
// replaced. Failures are `.fileUnwritable` (exit 73), one line naming the path.
enum OutputFile {
    // Throws unless `path` can be written: not a directory, and an existing file writable or
    // a missing one in a writable directory. `what` names the file ("the HAR file").
    static func check(_ path: String, what: String) throws {
        func refuse(_ reason: String) -> HeadwayError {
            HeadwayError(.fileUnwritable, "cannot write \(what) \(path): \(reason)")
        }
        guard !path.isEmpty, !path.hasSuffix("/") else { throw refuse("it names a directory") }
        var info = stat()
        if stat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) != S_IFDIR else { throw refuse("it is a directory") }
            guard access(path, W_OK) == 0 else { throw refuse(String(cString: strerror(errno))) }
            return
        }
        guard errno == ENOENT else { throw refuse(String(cString: strerror(errno))) }
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard stat(parent, &info) == 0 else { throw refuse("no such directory \(parent)") }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { throw refuse("\(parent) is not a directory") }
        guard access(parent, W_OK | X_OK) == 0 else { throw refuse("\(parent): \(String(cString: strerror(errno)))") }
    }

    // Writes `data` to `path` (see above).
    static func write(_ data: Data, to path: String, what: String) throws {
        func failure(_ reason: String) -> HeadwayError {
            HeadwayError(.fileUnwritable, "could not write \(what) \(path): \(reason)")
        }
        var info = stat()
        let exists = lstat(path, &info) == 0
        if exists && (info.st_mode & S_IFMT) != S_IFREG {
            try writeThrough(data, to: path, failure: failure)
            return
        }
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw failure(String(cString: strerror(errno))) }
        do {
            try writeAll(data, to: fd, failure: failure)
            guard close(fd) == 0 else { throw failure(String(cString: strerror(errno))) }
        } catch {
            unlink(temporary.path)
            throw error
        }
        guard rename(temporary.path, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw failure(reason)
        }
    }

    // Opens `path` (following a link) truncated, and writes `data` into it. A FIFO that nobody
    // reads fails at once rather than blocking.
    private static func writeThrough(_ data: Data, to path: String, failure: (String) -> HeadwayError) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK, 0o666)
        guard fd >= 0 else {
            throw failure(errno == ENXIO ? "no process reads it" : String(cString: strerror(errno)))
        }
        defer { close(fd) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        try writeAll(data, to: fd, failure: failure)
    }

    private static func writeAll(_ data: Data, to fd: Int32, failure: (String) -> HeadwayError) throws {
        try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            var offset = 0
            while offset < raw.count {
                let written = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { throw failure(String(cString: strerror(errno))) }
                offset += written
            }
        }
    }
}
