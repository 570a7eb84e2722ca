import Foundation
#if canImport(Glibc)
import Glibc
#endif

// nginx runs under a small shell that also watches its stdin: one end of a socket pair whose
// other end, the lifeline, only this process holds. When this process closes the lifeline, or
// exits in any way, the watcher reads end-of-file and sends nginx SIGQUIT; the shell then exits
// with nginx's status.
//
// The shell is started with posix_spawn and an empty signal mask. Foundation's Process passes on
// the calling thread's mask, and test threads block SIGQUIT and SIGCHLD: nginx would never see
// SIGQUIT and the shell would hang in `wait`.
struct NginxProcess {
    let wrapper: pid_t
    let lifeline: Int32

    private static let script = """
        exec 3<&0 0</dev/null
        "$0" "$@" 3<&- &
        nginx=$!
        { read -r _ <&3; kill -QUIT "$nginx"; } 2>/dev/null &
        watcher=$!
        wait "$nginx"
        status=$?
        kill "$watcher" 2>/dev/null
        wait "$watcher"
        exit "$status"
        """

    static func spawn(_ arguments: [String], stderr: URL) throws -> NginxProcess {
        let errorFile = open(stderr.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard errorFile >= 0 else { throw NginxError("cannot open \(stderr.path): errno \(errno)") }
        defer { close(errorFile) }
        // Created close-on-exec in one step, so no process another thread spawns meanwhile inherits it.
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            throw NginxError("socketpair failed: errno \(errno)")
        }
        defer { close(ends[0]) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        sigdelset(&all, SIGKILL)
        sigdelset(&all, SIGSTOP)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[0], 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, errorFile, 2)

        let argv = (["/bin/sh", "-c", script] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let result = posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, environ)
        guard result == 0 else {
            close(ends[1])
            throw NginxError("cannot start /bin/sh for nginx: error \(result)")
        }
        return NginxProcess(wrapper: pid, lifeline: ends[1])
    }

    /// The wrapper's exit status once it has exited (reaping it), or nil if it is still running
    /// after `timeout` seconds.
    func exitStatus(within timeout: Double) -> Int32? {
        var status: Int32 = 0
        let reaped = try? waitForBlocking("nginx's wrapper (pid \(wrapper)) to exit", within: .seconds(timeout),
                                          every: .milliseconds(10), { () -> Int32? in
            let result = waitpid(wrapper, &status, WNOHANG)
            if result == wrapper { return status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + status & 0x7f }
            return result < 0 && errno != EINTR ? -1 : nil
        }, until: { $0 != nil })
        return reaped
    }

    /// Closes the lifeline and waits for nginx and the wrapper to exit; kills them after 5 s.
    func stop(nginx: pid_t?) {
        close(lifeline)
        guard exitStatus(within: 5) == nil else { return }
        if let nginx { kill(nginx, SIGKILL) }
        guard exitStatus(within: 2) == nil else { return }
        kill(wrapper, SIGKILL)
        _ = exitStatus(within: 2)
    }
}
