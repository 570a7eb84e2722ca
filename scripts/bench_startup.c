/* Where a new browser's start-up goes, engine only (no Headway): N times in one process, on a
 * display that is already there, make a web context (or reuse one), a view in an offscreen
 * window, load about:blank, and end the view; print per round the time each step held the
 * thread, when the load finished, and which WebKit processes this process has.
 *
 * build: cc -O2 -o /tmp/bench_startup scripts/bench_startup.c $(pkg-config --cflags --libs webkit2gtk-4.1)
 * usage: bench_startup MODE ROUNDS
 *   fresh    a new ephemeral context per round (what a new Browser does)
 *   shared   one context for every round, a new view each round
 *   managers a new context per round, each with its own ephemeral website data manager, all made
 *            while the first context is alive (does each context start a network process?)
 *   one-manager  the same, but every context shares the first one's ephemeral data manager
 *   related  one context; each round's view is related to a view kept from the first round
 *            (it shares that view's web process)
 * Prints one line per round: ms for context creation, view creation + show (both on this
 * thread), load request to FINISHED (wall), the CPU ms this process used in the round, the
 * WebKitNetworkProcess and WebKitWebProcess children alive, the CPU ms they used in their
 * lives so far, and their RSS. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <webkit2/webkit2.h>

static GMainLoop *loop;

static void changed(WebKitWebView *view, WebKitLoadEvent event, gpointer data) {
    (void)view; (void)data;
    if (event == WEBKIT_LOAD_FINISHED) g_main_loop_quit(loop);
}

/* User + system CPU time of /proc/PID, in ms. */
static double process_cpu_ms(const char *pid) {
    char path[300], text[2048];
    snprintf(path, sizeof path, "/proc/%s/stat", pid);
    FILE *file = fopen(path, "r");
    if (!file) return 0;
    size_t length = fread(text, 1, sizeof text - 1, file);
    fclose(file);
    text[length] = 0;
    char *rest = strrchr(text, ')');
    if (!rest) return 0;
    unsigned long user = 0, system = 0;
    /* After ")": state, ppid, pgrp, session, tty, tpgid, flags, minflt, cminflt, majflt,
     * cmajflt, utime, stime. */
    sscanf(rest + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &user, &system);
    return (user + system) * 1000.0 / sysconf(_SC_CLK_TCK);
}

/* Counts this process's children named `name`, adds their RSS (KiB) to *rss and their CPU
 * time (ms) to *cpu. */
static int children(const char *name, long *rss, double *cpu) {
    int count = 0;
    DIR *proc = opendir("/proc");
    struct dirent *entry;
    while ((entry = readdir(proc))) {
        char path[300], line[512];
        snprintf(path, sizeof path, "/proc/%s/status", entry->d_name);
        FILE *file = fopen(path, "r");
        if (!file) continue;
        int match = 0, parent = -1;
        long kib = 0;
        while (fgets(line, sizeof line, file)) {
            if (!strncmp(line, "Name:", 5)) match = strstr(line, name) != NULL;
            if (!strncmp(line, "PPid:", 5)) parent = atoi(line + 5);
            if (!strncmp(line, "VmRSS:", 6)) kib = atol(line + 6);
        }
        fclose(file);
        if (match && parent == getpid()) {
            count++;
            *rss += kib;
            *cpu += process_cpu_ms(entry->d_name);
        }
    }
    closedir(proc);
    return count;
}

static double ms(gint64 from, gint64 to) { return (to - from) / 1000.0; }

static WebKitWebsiteDataManager *kept_manager;

static WebKitWebContext *new_context(int share_manager) {
    WebKitWebsiteDataManager *manager = share_manager && kept_manager ? g_object_ref(kept_manager)
        : webkit_website_data_manager_new_ephemeral();
    if (share_manager && !kept_manager) kept_manager = g_object_ref(manager);
    WebKitWebContext *context = webkit_web_context_new_with_website_data_manager(manager);
    g_object_unref(manager);
    webkit_web_context_set_cache_model(context, WEBKIT_CACHE_MODEL_WEB_BROWSER);
    return context;
}

static double self_cpu_ms(void) {
    char pid[32];
    snprintf(pid, sizeof pid, "%d", getpid());
    return process_cpu_ms(pid);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: bench_startup fresh|shared|managers|one-manager|related ROUNDS\n");
        return 2;
    }
    const char *mode = argv[1];
    int rounds = atoi(argv[2]);
    int keeps_context = !strcmp(mode, "shared") || !strcmp(mode, "related");
    int keeps_first = !strcmp(mode, "managers") || !strcmp(mode, "one-manager");
    if (!gtk_init_check(&argc, &argv)) {
        fprintf(stderr, "bench_startup: no display\n");
        return 1;
    }
    loop = g_main_loop_new(NULL, FALSE);
    WebKitWebContext *kept = NULL;
    WebKitWebView *seed = NULL;
    printf("round context_ms view_ms load_ms self_cpu_ms network_procs network_cpu_ms web_procs web_cpu_ms rss_mib\n");
    for (int round = 1; round <= rounds; round++) {
        double cpu0 = self_cpu_ms();
        gint64 t0 = g_get_monotonic_time();
        WebKitWebContext *context;
        if (keeps_context && kept) {
            context = kept;
        } else {
            context = new_context(!strcmp(mode, "one-manager"));
            if ((keeps_context || keeps_first) && !kept) kept = context;
        }
        gint64 t1 = g_get_monotonic_time();
        GtkWidget *window = gtk_offscreen_window_new();
        gtk_window_set_default_size(GTK_WINDOW(window), 1280, 1024);
        WebKitWebView *view = seed
            ? WEBKIT_WEB_VIEW(webkit_web_view_new_with_related_view(seed))
            : WEBKIT_WEB_VIEW(webkit_web_view_new_with_context(context));
        gtk_container_add(GTK_CONTAINER(window), GTK_WIDGET(view));
        gtk_widget_show_all(window);
        g_signal_connect(view, "load-changed", G_CALLBACK(changed), NULL);
        gint64 t2 = g_get_monotonic_time();
        webkit_web_view_load_uri(view, "about:blank");
        g_main_loop_run(loop);
        gint64 t3 = g_get_monotonic_time();
        long rss = 0;
        double network_cpu = 0, web_cpu = 0;
        int network = children("WebKitNetworkPr", &rss, &network_cpu);
        int web = children("WebKitWebProces", &rss, &web_cpu);
        printf("%d %.1f %.1f %.1f %.0f %d %.0f %d %.0f %.0f\n", round, ms(t0, t1), ms(t1, t2), ms(t2, t3),
               self_cpu_ms() - cpu0, network, network_cpu, web, web_cpu, rss / 1024.0);
        fflush(stdout);
        if (!strcmp(mode, "related") && !seed) {
            seed = view;  /* kept, with its window, for the next rounds to relate to */
        } else {
            if (!seed) webkit_web_view_terminate_web_process(view);
            gtk_widget_destroy(window);
        }
        if (context != kept) g_object_unref(context);
        /* Let the ended processes go before the next round. */
        g_usleep(300 * 1000);
        while (g_main_context_iteration(NULL, FALSE)) {}
    }
    return 0;
}
