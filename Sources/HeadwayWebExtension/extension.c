#include "headway_web_extension.h"

#include <string.h>
#include <webkit2/webkit-web-extension.h>

/* Brings absolute http(s) subresource requests of a page browsed through the mirror schemes
 * into those schemes (WebKitWebPage::send-request), so the booster's handler can answer them
 * from the prefetch cache. Only hosts the prefetch policy allows are rewritten. */

static gboolean all_hosts = FALSE;
static GHashTable *extra_hosts = NULL;

static char *host_of(const char *uri) {
    GUri *parsed = g_uri_parse(uri, G_URI_FLAGS_NONE, NULL);
    if (!parsed) return NULL;
    char *host = g_ascii_strdown(g_uri_get_host(parsed) ? g_uri_get_host(parsed) : "", -1);
    g_uri_unref(parsed);
    return host;
}

static gboolean on_send_request(WebKitWebPage *page, WebKitURIRequest *request,
                                WebKitURIResponse *redirected_response, gpointer user_data) {
    (void)redirected_response;
    (void)user_data;
    const char *page_uri = webkit_web_page_get_uri(page);
    const char *uri = webkit_uri_request_get_uri(request);
    if (!page_uri || !uri || !g_str_has_prefix(page_uri, "headway-http")) return FALSE;
    const char *rest;
    const char *scheme;
    if (g_str_has_prefix(uri, "http://")) {
        scheme = "headway-http";
        rest = uri + strlen("http");
    } else if (g_str_has_prefix(uri, "https://")) {
        scheme = "headway-https";
        rest = uri + strlen("https");
    } else {
        return FALSE;
    }
    char *page_host = host_of(page_uri);
    char *host = host_of(uri);
    gboolean eligible = host && (all_hosts || (page_host && strcmp(host, page_host) == 0) ||
                                 (extra_hosts && g_hash_table_contains(extra_hosts, host)));
    if (eligible) {
        char *mirrored = g_strconcat(scheme, rest, NULL);
        webkit_uri_request_set_uri(request, mirrored);
        g_free(mirrored);
    }
    g_free(page_host);
    g_free(host);
    return FALSE;
}

static void on_page_created(WebKitWebExtension *extension, WebKitWebPage *page, gpointer user_data) {
    (void)extension;
    (void)user_data;
    g_signal_connect(page, "send-request", G_CALLBACK(on_send_request), NULL);
}

G_MODULE_EXPORT void webkit_web_extension_initialize_with_user_data(WebKitWebExtension *extension,
                                                                     const GVariant *user_data) {
    extra_hosts = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    if (user_data && g_variant_is_of_type((GVariant *)user_data, G_VARIANT_TYPE("(bas)"))) {
        GVariantIter *iter = NULL;
        const char *host;
        g_variant_get((GVariant *)user_data, "(bas)", &all_hosts, &iter);
        while (g_variant_iter_next(iter, "&s", &host)) g_hash_table_add(extra_hosts, g_ascii_strdown(host, -1));
        g_variant_iter_free(iter);
    }
    g_signal_connect(extension, "page-created", G_CALLBACK(on_page_created), NULL);
}
