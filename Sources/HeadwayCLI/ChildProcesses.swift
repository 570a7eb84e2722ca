import Foundation
import Headway

// The processes headway started, directly or not: WebKit's web and network processes (and
// the sandbox's, when there is one) and Headway's Xvfb.
enum ChildProcesses {
    // Kills every process below headway with SIGKILL, except its Xvfb: PR_SET_PDEATHSIG ends
    // that one as headway goes, and ending it first would make GDK report a lost display.
    static func kill() {
        let own = getpid()
        let xvfb = Display.xvfbProcessID
        var table: [(pid: Int32, parent: Int32, name: String)] = []
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry), let stat = stat(of: pid) else { continue }
            table.append((pid, stat.parent, stat.name))
        }
        var below: Set<Int32> = [own]
        var grew = true
        while grew {
            grew = false
            for row in table where !below.contains(row.pid) && below.contains(row.parent) {
                below.insert(row.pid)
                grew = true
            }
        }
        for row in table where below.contains(row.pid) && row.pid != own {
            if row.pid == xvfb { continue }
            Glibc.kill(row.pid, SIGKILL)
        }
    }

    // Marks every descriptor headway inherited (beyond the standard streams) close-on-exec, so
    // that no process it starts holds one: WebKit's processes inherit whatever is open and not
    // marked, and a caller that watches a pipe or socket for headway's end (Foundation's
    // Process does) would otherwise wait for them too. Headway itself can still use them.
    static func keepInheritedDescriptors() {
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            guard let fd = Int32(entry), fd > 2 else { continue }
            let flags = fcntl(fd, F_GETFD)
            if flags >= 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
        }
    }

    // The parent and command name of `pid`, from /proc/PID/stat.
    private static func stat(of pid: Int32) -> (parent: Int32, name: String)? {
        // Decoded leniently: a command name need not be UTF-8, and such a process is killed too.
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/stat"),
              case let text = String(decoding: data, as: UTF8.self),
              let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(close, offsetBy: 2)...].split(separator: " ")
        guard fields.count > 1, let parent = Int32(fields[1]) else { return nil }
        return (parent, String(text[text.index(after: open)..<close]))
    }
}
