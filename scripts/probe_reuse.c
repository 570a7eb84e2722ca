/* What a web context still holds for a second session after WebKit's clear APIs: session 1
 * answers an HTTP authentication challenge and loads a page; its view ends; then, with `reuse`,
 * the same context's website data is cleared (webkit_website_data_manager_clear with
 * WEBKIT_WEBSITE_DATA_ALL, and webkit_web_context_clear_cache) and session 2 opens a new view in
 * it; with `fresh`, session 2 gets a new ephemeral context. Session 2 cancels any challenge.
 * A libsoup server in this process records each request's client port and Authorization header.
 *
 * build: cc -O2 -o /tmp/probe_reuse scripts/probe_reuse.c $(pkg-config --cflags --libs webkit2gtk-4.1)
 * usage: probe_reuse reuse|fresh      (needs a display; prints one line per request, then
 *                                      whether session 2 sent session 1's credentials and
 *                                      whether it came on session 1's connection) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <webkit2/webkit2.h>

static GMainLoop *loop;
static int session = 1;
static guint16 first_port;
static int leaked_credentials, shared_connection;

static void handle(SoupServer *server, SoupServerMessage *message, const char *path, GHashTable *query,
                   gpointer data) {
    (void)server; (void)query; (void)data;
    const char *authorization = soup_message_headers_get_one(
        soup_server_message_get_request_headers(message), "Authorization");
    GSocketAddress *remote = soup_server_message_get_remote_address(message);
    guint16 port = g_inet_socket_address_get_port(G_INET_SOCKET_ADDRESS(remote));
    printf("session %d: GET %s from port %u, Authorization: %s\n", session, path, port,
           authorization ? authorization : "(none)");
    if (session == 1 && !first_port) first_port = port;
    if (session == 2 && authorization) leaked_credentials = 1;
    if (session == 2 && port == first_port) shared_connection = 1;
    const char *body = "<title>page</title>";
    if (!strcmp(path, "/auth") && (!authorization || strcmp(authorization, "Basic dTpw"))) {
        soup_message_headers_append(soup_server_message_get_response_headers(message), "WWW-Authenticate",
                                    "Basic realm=\"probe\"");
        soup_server_message_set_status(message, 401, NULL);
    } else {
        soup_server_message_set_status(message, 200, NULL);
    }
    soup_server_message_set_response(message, "text/html", SOUP_MEMORY_STATIC, body, strlen(body));
}

static void changed(WebKitWebView *view, WebKitLoadEvent event, gpointer data) {
    (void)view; (void)data;
    if (event == WEBKIT_LOAD_FINISHED) g_main_loop_quit(loop);
}

/* Session 1 answers with u:p for the session (as a browser that remembers them); session 2 cancels. */
static gboolean authenticate(WebKitWebView *view, WebKitAuthenticationRequest *request, gpointer answer) {
    (void)view;
    if (answer) {
        WebKitCredential *credential = webkit_credential_new("u", "p", WEBKIT_CREDENTIAL_PERSISTENCE_FOR_SESSION);
        webkit_authentication_request_authenticate(request, credential);
        webkit_credential_free(credential);
    } else {
        webkit_authentication_request_cancel(request);
    }
    return TRUE;
}

static void cleared(GObject *manager, GAsyncResult *result, gpointer data) {
    (void)data;
    webkit_website_data_manager_clear_finish(WEBKIT_WEBSITE_DATA_MANAGER(manager), result, NULL);
    g_main_loop_quit(loop);
}

static void visit(WebKitWebContext *context, const char *base, gboolean answer) {
    GtkWidget *window = gtk_offscreen_window_new();
    WebKitWebView *view = WEBKIT_WEB_VIEW(webkit_web_view_new_with_context(context));
    gtk_container_add(GTK_CONTAINER(window), GTK_WIDGET(view));
    gtk_widget_show_all(window);
    g_signal_connect(view, "load-changed", G_CALLBACK(changed), NULL);
    g_signal_connect(view, "authenticate", G_CALLBACK(authenticate), GINT_TO_POINTER(answer));
    for (int i = 0; i < 2; i++) {
        char *uri = g_strconcat(base, i == 0 ? "auth" : "page", NULL);
        webkit_web_view_load_uri(view, uri);
        g_main_loop_run(loop);
        g_free(uri);
    }
    webkit_web_view_terminate_web_process(view);
    gtk_widget_destroy(window);
}

int main(int argc, char **argv) {
    if (argc != 2 || (strcmp(argv[1], "reuse") && strcmp(argv[1], "fresh"))) {
        fprintf(stderr, "usage: probe_reuse reuse|fresh\n");
        return 2;
    }
    if (!gtk_init_check(&argc, &argv)) {
        fprintf(stderr, "probe_reuse: no display\n");
        return 1;
    }
    loop = g_main_loop_new(NULL, FALSE);
    SoupServer *server = soup_server_new(NULL, NULL);
    soup_server_add_handler(server, NULL, handle, NULL, NULL);
    GError *error = NULL;
    if (!soup_server_listen_local(server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error)) {
        fprintf(stderr, "probe_reuse: %s\n", error->message);
        return 1;
    }
    GSList *uris = soup_server_get_uris(server);
    char *base = g_uri_to_string(uris->data);
    WebKitWebContext *context = webkit_web_context_new_ephemeral();
    visit(context, base, TRUE);
    session = 2;
    if (!strcmp(argv[1], "reuse")) {
        webkit_website_data_manager_clear(webkit_web_context_get_website_data_manager(context),
                                          WEBKIT_WEBSITE_DATA_ALL, 0, NULL, cleared, NULL);
        g_main_loop_run(loop);
        webkit_web_context_clear_cache(context);
    } else {
        g_object_unref(context);
        context = webkit_web_context_new_ephemeral();
    }
    visit(context, base, FALSE);
    printf("%s: session 2 sent session 1's credentials: %s; came on session 1's connection: %s\n", argv[1],
           leaked_credentials ? "yes" : "no", shared_connection ? "yes" : "no");
    return 0;
}
