import Foundation
import Headway

// Files the CLI writes (--har, --screenshot), checked before any page loads and written as
// `curl -o` writes: a regular file (or none yet) is replaced whole, through a temporary file
// renamed over it that keeps the old file's mode (and owner, as root), so a reader never sees a
// half-written file and a failed write leaves the old one; a device, a FIFO or a symbolic link
// is opened and written through, never replaced. Failures are `.fileUnwritable` (exit 73), one
// line naming the path.
enum OutputFile {
    // Throws unless `path` can be written: not a directory, and an existing file writable (a
    // regular one, which is replaced, in a writable directory too) or a missing one in a
    // writable directory. `what` names the file ("the HAR file"). `access`
    // answers 0 or an errno, as access(2) does (tests give the answers root never gets).
    static func check(_ path: String, what: String, access: (String, Int32) -> Int32 = systemAccess) throws {
        func refuse(_ reason: String) -> HeadwayError {
            HeadwayError(.fileUnwritable, "cannot write \(what) \(path): \(reason)")
        }
        guard !path.isEmpty, !path.hasSuffix("/") else { throw refuse("it names a directory") }
        var info = stat()
        if stat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) != S_IFDIR else { throw refuse("it is a directory") }
            let denied = access(path, W_OK)
            guard denied == 0 else { throw refuse(String(cString: strerror(denied))) }
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return }
        } else {
            guard errno == ENOENT else { throw refuse(String(cString: strerror(errno))) }
        }
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard stat(parent, &info) == 0 else { throw refuse("no such directory \(parent)") }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { throw refuse("\(parent) is not a directory") }
        let denied = access(parent, W_OK | X_OK)
        guard denied == 0 else { throw refuse("\(parent): \(String(cString: strerror(denied)))") }
    }

    // Checks that `path` is a directory that can be written, or can be made (its nearest existing
    // ancestor is a writable directory), before any page loads.
    static func checkDirectory(_ path: String, what: String, access: (String, Int32) -> Int32 = systemAccess) throws {
        func refuse(_ reason: String) -> HeadwayError {
            HeadwayError(.fileUnwritable, "cannot write \(what) in \(path): \(reason)")
        }
        guard !path.isEmpty else { throw refuse("no directory given") }
        var existing = URL(fileURLWithPath: path).standardizedFileURL
        var info = stat()
        while stat(existing.path, &info) != 0 {
            guard errno == ENOENT || errno == ENOTDIR, existing.path != "/" else {
                throw refuse(String(cString: strerror(errno)))
            }
            existing.deleteLastPathComponent()
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { throw refuse("\(existing.path) is not a directory") }
        let denied = access(existing.path, W_OK | X_OK)
        guard denied == 0 else { throw refuse("\(existing.path): \(String(cString: strerror(denied)))") }
    }

    static func systemAccess(_ path: String, _ mode: Int32) -> Int32 {
        Glibc.access(path, mode) == 0 ? 0 : errno
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
            if exists {
                // The new file takes the old one's place: keep who may read it (a HAR holds cookies).
                if info.st_uid != geteuid() || info.st_gid != getegid() { _ = fchown(fd, info.st_uid, info.st_gid) }
                guard fchmod(fd, info.st_mode & 0o7777) == 0 else { throw failure(String(cString: strerror(errno))) }
            }
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
