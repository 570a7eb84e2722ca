#define _GNU_SOURCE
#include "headway_shims.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* ---- Xvfb ---------------------------------------------------------------------------- */

static volatile sig_atomic_t hw_xvfb_child = 0;

static void hw_xvfb_kill(void) {
    pid_t pid = hw_xvfb_child;
    if (pid > 0) {
        hw_xvfb_child = 0;
        kill(pid, SIGTERM);
    }
}

static void hw_xvfb_stop_and_reap(void) {
    pid_t pid = hw_xvfb_child;
    hw_xvfb_kill();
    if (pid > 0) {
        for (int i = 0; i < 100; i++) {
            if (waitpid(pid, NULL, WNOHANG) != 0) break;
            usleep(10000);
        }
    }
}

int hw_xvfb_pid(void) { return hw_xvfb_child; }

static char hw_x_lost_line[512];
static int hw_x_lost_status = 69;

static int hw_x_io_error(void *display) {
    (void)display;
    ssize_t written = write(2, hw_x_lost_line, strlen(hw_x_lost_line));
    (void)written;
    hw_xvfb_kill();
    _exit(hw_x_lost_status);
}

gboolean hw_x_io_error_install(const char *line, int status) {
    typedef int (*hw_x_handler)(void *);
    /* Looked up at run time: libX11 is loaded with GDK's X11 backend, and Headway need not link it. */
    hw_x_handler (*set)(hw_x_handler) = (hw_x_handler (*)(hw_x_handler))dlsym(RTLD_DEFAULT, "XSetIOErrorHandler");
    if (!set) return FALSE;
    snprintf(hw_x_lost_line, sizeof hw_x_lost_line, "%s\n", line);
    hw_x_lost_status = status;
    set(hw_x_io_error);
    return TRUE;
}

void hw_set_thread_name(const char *name) { prctl(PR_SET_NAME, name, 0, 0, 0); }

/* Closes every descriptor from `lowest` up, in a child between fork and exec: only
 * async-signal-safe calls (no opendir, which allocates). */
static void hw_close_from(int lowest) {
#ifdef SYS_close_range
    if (syscall(SYS_close_range, (unsigned)lowest, ~0U, 0) == 0) return;
#endif
    int dir = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
        char buf[1024] __attribute__((aligned(8)));
        int closed_any = 1;
        long n = 0;
        /* Closing entries while reading the directory can make it skip some: read again until
         * a pass finds nothing more to close. */
        while (closed_any) {
            closed_any = 0;
            lseek(dir, 0, SEEK_SET);
            while ((n = syscall(SYS_getdents64, dir, buf, sizeof buf)) > 0) {
                for (long at = 0; at < n;) {
                    struct hw_dirent64 {
                        unsigned long long ino;
                        long long off;
                        unsigned short reclen;
                        unsigned char type;
                        char name[];
                    } *entry = (struct hw_dirent64 *)(buf + at);
                    at += entry->reclen;
                    int fd = 0;
                    const char *c = entry->name;
                    if (*c < '0' || *c > '9') continue;
                    for (; *c >= '0' && *c <= '9'; c++) fd = fd * 10 + (*c - '0');
                    if (fd >= lowest && fd != dir) {
                        close(fd);
                        closed_any = 1;
                    }
                }
            }
            if (n < 0) break;
        }
        close(dir);
        if (n == 0) return;
    }
    struct rlimit limit;
    /* A last resort (no close_range, no /proc): a container's limit may be 2^30; stop at 2^16. */
    long most = getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < 65536 ? (long)limit.rlim_cur : 65536;
    for (long fd = lowest; fd < most; fd++) close((int)fd);
}

int hw_xvfb_start(const char *xvfb_path, int timeout_ms, char *error_buf, int error_len) {
    int fds[2];
    /* Close-on-exec: no process started meanwhile by another thread (a client's own) may hold
     * the write end, or the read below would not see Xvfb go. */
    if (pipe2(fds, O_CLOEXEC) != 0) {
        if (error_buf) snprintf(error_buf, error_len, "pipe: %s", strerror(errno));
        return -1;
    }
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        if (error_buf) snprintf(error_buf, error_len, "fork: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        /* The forking thread may block signals; Xvfb must see SIGTERM. The parent's handlers
         * go first, so that none of them can run here once the signals are unblocked. */
        for (int sig = 1; sig < NSIG; sig++) signal(sig, SIG_DFL);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != parent) _exit(127);
        /* A process group of its own: a terminal's Ctrl-C (SIGINT to the foreground group) is
         * for Headway, which may catch it and go on (--inspect), and must not end its display. */
        setpgid(0, 0);
        /* Xvfb gets /dev/null as its standard streams, the pipe's write end as descriptor 3, and
         * nothing else of its parent's: a descriptor it kept open (a client's pipe, the socket
         * Foundation's Process watches for a child's exit) would stay open as long as Xvfb runs.
         * The write end first goes above the standard streams, which may be closed in the parent. */
        int report = fcntl(fds[1], F_DUPFD, 3);
        if (report < 0) _exit(127);
        int devnull = open("/dev/null", O_RDWR);
        if (devnull < 0) _exit(127);
        for (int fd = 0; fd < 3; fd++)
            if (devnull != fd && dup2(devnull, fd) != fd) _exit(127);
        if (report != 3 && dup2(report, 3) != 3) _exit(127);
        hw_close_from(4);
        execl(xvfb_path, "Xvfb", "-displayfd", "3", "-screen", "0", "1280x1024x24",
              "-nolisten", "tcp", "-noreset", (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    hw_xvfb_child = pid;
    /* No atexit hook and no signal handlers: killing Xvfb while the process is still running
     * (exit() or a handler for SIGINT) races GDK's X I/O error handler, which calls exit(1) on
     * the engine thread. PR_SET_PDEATHSIG stops Xvfb once the process is gone, however it goes. */
    char buf[32] = {0};
    size_t used = 0;
    int remaining = timeout_ms;
    while (used < sizeof buf - 1) {
        struct pollfd p = {.fd = fds[0], .events = POLLIN};
        int r = poll(&p, 1, remaining > 100 ? 100 : remaining);
        if (r < 0 && errno == EINTR) continue;
        if (r == 0) {
            remaining -= 100;
            if (remaining <= 0) break;
            continue;
        }
        ssize_t n = read(fds[0], buf + used, sizeof buf - 1 - used);
        if (n <= 0) break;
        used += (size_t)n;
        if (memchr(buf, '\n', used)) break;
    }
    close(fds[0]);
    if (used == 0 || !memchr(buf, '\n', used)) {
        int status = 0;
        pid_t done = waitpid(pid, &status, WNOHANG);
        if (error_buf) {
            if (done == pid)
                snprintf(error_buf, error_len, "Xvfb exited with status %d before it was ready",
                         WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
            else
                snprintf(error_buf, error_len, "Xvfb did not report a display within %d ms", timeout_ms);
        }
        hw_xvfb_stop_and_reap();
        return -1;
    }
    return atoi(buf);
}
