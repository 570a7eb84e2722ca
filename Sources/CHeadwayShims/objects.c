#include "headway_shims.h"

/* Calls Swift cannot make: variadic constructors (g_object_new, soup_session_new_with_options),
 * g_signal_connect_data with a destroy notify, and libsoup's message callbacks. */

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
    char *user;
    char *password;
} HwCredentials;

static void hw_credentials_free(gpointer data, GClosure *closure) {
    (void)closure;
    HwCredentials *credentials = data;
    g_free(credentials->user);
    g_free(credentials->password);
    g_free(credentials);
}

static gboolean hw_accept_any_certificate(SoupMessage *message, GTlsCertificate *certificate,
                                          GTlsCertificateFlags errors, gpointer data) {
    (void)message;
    (void)certificate;
    (void)errors;
    (void)data;
    return TRUE;
}

static gboolean hw_authenticate(SoupMessage *message, SoupAuth *auth, gboolean retrying, gpointer data) {
    (void)message;
    HwCredentials *credentials = data;
    if (retrying) return FALSE;
    soup_auth_authenticate(auth, credentials->user, credentials->password);
    return TRUE;
}

void hw_soup_message_answer(SoupMessage *message, gboolean accept_any_certificate, const char *user,
                            const char *password) {
    if (accept_any_certificate) {
        g_signal_connect(message, "accept-certificate", G_CALLBACK(hw_accept_any_certificate), NULL);
    }
    if (user) {
        HwCredentials *credentials = g_new0(HwCredentials, 1);
        credentials->user = g_strdup(user);
        credentials->password = g_strdup(password ? password : "");
        /* Freed with the message's signal handlers. */
        g_signal_connect_data(message, "authenticate", G_CALLBACK(hw_authenticate), credentials,
                              hw_credentials_free, 0);
    }
}
