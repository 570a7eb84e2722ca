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

int hw_xvfb_start(const char *xvfb_path, int timeout_ms, char *error_buf, int error_len) {
    int fds[2];
    if (pipe(fds) != 0) {
        if (error_buf) snprintf(error_buf, error_len, "pipe: %s", strerror(errno));
        return -1;
    }
    char fd_arg[16];
    snprintf(fd_arg, sizeof fd_arg, "%d", fds[1]);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        if (error_buf) snprintf(error_buf, error_len, "fork: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        /* The forking thread may block signals; Xvfb must see SIGTERM. */
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        for (int sig = 1; sig < NSIG; sig++) signal(sig, SIG_DFL);
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != parent) _exit(127);
        /* A process group of its own: a terminal's Ctrl-C (SIGINT to the foreground group) is
         * for Headway, which may catch it and go on (--inspect), and must not end its display. */
        setpgid(0, 0);
        close(fds[0]);
        int devnull = open("/dev/null", O_RDWR);
        if (devnull >= 0) {
            dup2(devnull, 0);
            dup2(devnull, 1);
            dup2(devnull, 2);
        }
        execl(xvfb_path, "Xvfb", "-displayfd", fd_arg, "-screen", "0", "1280x1024x24",
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
