/* The engine's floor for the one-shot job: a WebKitGTK view in an offscreen window, as Headway
 * makes one (web-browser cache model), loads argv[1], evaluates document.title once the load
 * has finished, prints it, ends the web process and exits. No Headway: what the engine itself costs on a display that
 * is already there. Exits 1 when the load fails or takes more than 30 s. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <webkit2/webkit2.h>

static void evaluated(GObject *view, GAsyncResult *result, gpointer data) {
    (void)data;
    GError *error = NULL;
    JSCValue *value = webkit_web_view_evaluate_javascript_finish(WEBKIT_WEB_VIEW(view), result, &error);
    if (!value) {
        fprintf(stderr, "bench_floor: %s\n", error->message);
        _exit(1);
    }
    char *text = jsc_value_to_string(value);
    printf("%s\n", text);
    fflush(stdout);
    /* As a browser that closes its page: the web process ends now rather than when it notices
     * that this process is gone (it shares stdout and stderr, so a reader would wait for it). */
    webkit_web_view_terminate_web_process(WEBKIT_WEB_VIEW(view));
    _exit(0);
}

static void changed(WebKitWebView *view, WebKitLoadEvent event, gpointer data) {
    (void)data;
    if (event == WEBKIT_LOAD_FINISHED)
        webkit_web_view_evaluate_javascript(view, "document.title", -1, NULL, NULL, NULL, evaluated, NULL);
}

static gboolean failed(WebKitWebView *view, WebKitLoadEvent event, char *uri, GError *error, gpointer data) {
    (void)view; (void)event; (void)data;
    fprintf(stderr, "bench_floor: %s: %s\n", uri, error->message);
    _exit(1);
}

static gboolean too_long(gpointer data) {
    (void)data;
    fprintf(stderr, "bench_floor: no load within 30 s\n");
    _exit(1);
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: bench_floor URL\n");
        return 2;
    }
    if (!gtk_init_check(&argc, &argv)) {
        fprintf(stderr, "bench_floor: no display\n");
        return 1;
    }
    WebKitWebContext *context = webkit_web_context_new_ephemeral();
    webkit_web_context_set_cache_model(context, WEBKIT_CACHE_MODEL_WEB_BROWSER);
    GtkWidget *window = gtk_offscreen_window_new();
    gtk_window_set_default_size(GTK_WINDOW(window), 1280, 1024);
    WebKitWebView *view = WEBKIT_WEB_VIEW(webkit_web_view_new_with_context(context));
    gtk_container_add(GTK_CONTAINER(window), GTK_WIDGET(view));
    gtk_widget_show_all(window);
    g_signal_connect(view, "load-changed", G_CALLBACK(changed), NULL);
    g_signal_connect(view, "load-failed", G_CALLBACK(failed), NULL);
    g_timeout_add_seconds(30, too_long, NULL);
    webkit_web_view_load_uri(view, argv[1]);
    g_main_loop_run(g_main_loop_new(NULL, FALSE));
    return 0;
}
