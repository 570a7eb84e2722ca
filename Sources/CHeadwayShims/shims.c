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

typedef struct {
    void (*fn)(void *);
    void *data;
} hw_call;

static gboolean hw_call_dispatch(gpointer user_data) {
    hw_call *call = user_data;
    call->fn(call->data);
    return G_SOURCE_REMOVE;
}

void hw_invoke(void (*fn)(void *), void *data) {
    hw_call *call = g_new(hw_call, 1);
    call->fn = fn;
    call->data = data;
    GSource *source = g_idle_source_new();
    g_source_set_priority(source, G_PRIORITY_DEFAULT);
    g_source_set_callback(source, hw_call_dispatch, call, g_free);
    g_source_attach(source, NULL);
    g_source_unref(source);
}

gulong hw_signal_connect(gpointer instance, const char *signal, GCallback handler,
                         gpointer data, GClosureNotify destroy) {
    return g_signal_connect_data(instance, signal, handler, data, destroy, 0);
}

WebKitWebView *hw_web_view_new(WebKitWebContext *context, WebKitUserContentManager *manager) {
    return WEBKIT_WEB_VIEW(g_object_new(WEBKIT_TYPE_WEB_VIEW,
                                        "web-context", context,
                                        "user-content-manager", manager,
                                        NULL));
}

WebKitWebContext *hw_web_context_new(gboolean ephemeral, guint memory_limit_mb) {
    const char *names[2];
    GValue values[2] = {G_VALUE_INIT, G_VALUE_INIT};
    guint count = 0;
    if (ephemeral) {
        names[count] = "website-data-manager";
        g_value_init(&values[count], WEBKIT_TYPE_WEBSITE_DATA_MANAGER);
        g_value_take_object(&values[count], webkit_website_data_manager_new_ephemeral());
        count++;
    }
    if (memory_limit_mb > 0) {
        WebKitMemoryPressureSettings *settings = webkit_memory_pressure_settings_new();
        webkit_memory_pressure_settings_set_memory_limit(settings, memory_limit_mb);
        /* Killed at the limit itself; the strict (0.5) and conservative thresholds stay. */
        webkit_memory_pressure_settings_set_kill_threshold(settings, 1.0);
        webkit_memory_pressure_settings_set_poll_interval(settings, 1.0);
        names[count] = "memory-pressure-settings";
        g_value_init(&values[count], WEBKIT_TYPE_MEMORY_PRESSURE_SETTINGS);
        g_value_take_boxed(&values[count], settings);
        count++;
    }
    GObject *context = g_object_new_with_properties(WEBKIT_TYPE_WEB_CONTEXT, count, names, values);
    for (guint i = 0; i < count; i++) g_value_unset(&values[i]);
    return WEBKIT_WEB_CONTEXT(context);
}

SoupServer *hw_soup_server_new(const char *server_header) {
    return soup_server_new("server-header", server_header, NULL);
}

SoupSession *hw_soup_session_new(int max_conns, int max_conns_per_host) {
    return soup_session_new_with_options("max-conns", max_conns, "max-conns-per-host", max_conns_per_host, NULL);
}

typedef struct {
    SoupMessage *message;
    GCancellable *cancellable;
    guint timer;
} HwPreconnect;

static gboolean hw_preconnect_timed_out(gpointer data) {
    HwPreconnect *preconnect = data;
    preconnect->timer = 0;
    g_cancellable_cancel(preconnect->cancellable);
    return G_SOURCE_REMOVE;
}

static void hw_preconnect_done(GObject *source, GAsyncResult *result, gpointer data) {
    /* A failed preconnect costs nothing: the request that follows connects and reports the error. */
    HwPreconnect *preconnect = data;
    soup_session_preconnect_finish(SOUP_SESSION(source), result, NULL);
    if (preconnect->timer) g_source_remove(preconnect->timer);
    g_object_unref(preconnect->cancellable);
    g_object_unref(preconnect->message);
    g_free(preconnect);
}

void hw_soup_session_preconnect(SoupSession *session, const char *uri, guint timeout_seconds) {
    SoupMessage *message = soup_message_new("GET", uri);
    if (!message) return;
    HwPreconnect *preconnect = g_new0(HwPreconnect, 1);
    preconnect->message = message;
    preconnect->cancellable = g_cancellable_new();
    preconnect->timer = g_timeout_add_seconds(timeout_seconds, hw_preconnect_timed_out, preconnect);
    /* Everything is released in hw_preconnect_done, which always runs (cancelled or not). */
    soup_session_preconnect_async(session, message, G_PRIORITY_DEFAULT, preconnect->cancellable, hw_preconnect_done, preconnect);
}

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

/* ---- cairo --------------------------------------------------------------------------- */

int hw_surface_write_png(cairo_surface_t *surface, const char *path) {
    return (int)cairo_surface_write_to_png(surface, path);
}

int hw_surface_distinct_colors(cairo_surface_t *surface, int max_samples) {
    cairo_surface_flush(surface);
    if (cairo_surface_get_type(surface) != CAIRO_SURFACE_TYPE_IMAGE) return -1;
    int width = cairo_image_surface_get_width(surface);
    int height = cairo_image_surface_get_height(surface);
    int stride = cairo_image_surface_get_stride(surface);
    const unsigned char *data = cairo_image_surface_get_data(surface);
    if (!data || width <= 0 || height <= 0) return 0;
    GHashTable *seen = g_hash_table_new(g_direct_hash, g_direct_equal);
    long total = (long)width * height;
    long step = total / (max_samples > 0 ? max_samples : 1);
    if (step < 1) step = 1;
    for (long i = 0; i < total; i += step) {
        long x = i % width, y = i / width;
        guint32 px = *(const guint32 *)(data + y * stride + x * 4) & 0x00ffffff;
        g_hash_table_add(seen, GUINT_TO_POINTER(px + 1));
    }
    int count = (int)g_hash_table_size(seen);
    g_hash_table_destroy(seen);
    return count;
}
