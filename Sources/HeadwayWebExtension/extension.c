#include "headway_web_extension.h"

#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>
#include <webkit2/webkit-web-extension.h>

/* Runs in every web process of a browser that needs it (WebKitWebPage::send-request):
 * - keeps requests whose URL matches a blocked pattern off the network, and tells the view;
 * - adds the configured headers to every request;
 * - with the booster, brings absolute http(s) requests of a page browsed through the mirror
 *   schemes into those schemes, so the booster's handler can answer them from the prefetch cache:
 *   subresources, frames, and the main document of a navigation the page starts (a link or a
 *   script with an absolute URL). Only hosts the prefetch policy allows are rewritten.
 * - with a request filter or request interception, asks the browser's filter server (an abstract
 *   Unix socket) about each request, which it may block, hold for an interceptor, send elsewhere
 *   or send with other headers (filter_blocks); no answer within 5 s (70 s once held) lets the
 *   request go;
 * - tells each view its web process's id ("headway-pid"), so a memory limit can be enforced
 *   from outside a process whose main thread a page keeps busy.
 * - gives Headway's isolated world its bridge to the page's world (bridge.c).
 * The settings come as an a{sv} dictionary: mirror (b), allHosts (b), extraHosts (as),
 * headers (a(ss)), block (as), filter (s, the socket's abstract name), and the bridge's
 * isolatedWorld, pageRunner and isolatedBridge (s). */

static gboolean mirror = FALSE;
static gboolean all_hosts = FALSE;
static GHashTable *extra_hosts = NULL;
static GPtrArray *headers = NULL; /* name, value, name, value, ... */
static GPtrArray *blocked = NULL;  /* GPatternSpec */
static char *filter_address = NULL;
static int filter_fd = -1;

static char *host_of(const char *uri) {
    GUri *parsed = g_uri_parse(uri, G_URI_FLAGS_NONE, NULL);
    if (!parsed) return NULL;
    char *host = g_ascii_strdown(g_uri_get_host(parsed) ? g_uri_get_host(parsed) : "", -1);
    g_uri_unref(parsed);
    return host;
}

/* The URL as the page's author wrote it: a mirror scheme's URL made http(s) again. */
static char *real_uri(const char *uri) {
    if (g_str_has_prefix(uri, "headway-http")) return g_strdup(uri + strlen("headway-"));
    return g_strdup(uri);
}

static gboolean is_blocked(const char *uri) {
    if (!blocked || blocked->len == 0) return FALSE;
    char *real = real_uri(uri);
    gboolean match = FALSE;
    for (guint i = 0; i < blocked->len && !match; i++) {
        match = g_pattern_spec_match_string(g_ptr_array_index(blocked, i), real);
    }
    g_free(real);
    return match;
}

static int filter_connect(void) {
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    struct sockaddr_un name = {0};
    name.sun_family = AF_UNIX;
    size_t length = MIN(strlen(filter_address), sizeof(name.sun_path) - 1);
    memcpy(name.sun_path + 1, filter_address, length);
    struct timeval bound = {5, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &bound, sizeof bound);
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &bound, sizeof bound);
    if (connect(fd, (struct sockaddr *)&name, (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + length)) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* A field of a question or answer: '%', tab, CR and LF written as %XX, so that fields are
 * separated by tabs and a message ends at its newline. */
static void append_field(GString *out, const char *text) {
    g_string_append_c(out, '\t');
    for (const char *c = text ? text : ""; *c; c++) {
        if (*c == '%' || *c == '\t' || *c == '\n' || *c == '\r') {
            g_string_append_printf(out, "%%%02X", (unsigned char)*c);
        } else {
            g_string_append_c(out, *c);
        }
    }
}

static char *unescape_field(const char *text) {
    char *plain = g_uri_unescape_string(text, NULL);
    return plain ? plain : g_strdup(text);
}

/* One answer line from the filter server, without its newline; NULL on a timeout or a closed
 * server. At most 1 MB. */
static char *read_answer(void) {
    GString *line = g_string_new(NULL);
    char chunk[4096];
    while (line->len < (1 << 20)) {
        ssize_t count = recv(filter_fd, chunk, sizeof chunk, MSG_PEEK);
        if (count <= 0) break;
        char *end = memchr(chunk, '\n', (size_t)count);
        size_t take = end ? (size_t)(end - chunk) + 1 : (size_t)count;
        if (read(filter_fd, chunk, take) != (ssize_t)take) break;
        g_string_append_len(line, chunk, (gssize)(end ? take - 1 : take));
        if (end) return g_string_free(line, FALSE);
    }
    g_string_free(line, TRUE);
    return NULL;
}

static void set_read_bound(int seconds) {
    struct timeval bound = {seconds, 0};
    setsockopt(filter_fd, SOL_SOCKET, SO_RCVTIMEO, &bound, sizeof bound);
}

/* Asks the browser's filter server about a request: it writes
 * "METHOD\tURL\tPAGE\tPAGE-ID[\tNAME\tVALUE]...\n" and reads "A" (send it), "B" (block it),
 * "W" (held by an interceptor: wait up to 70 s more for the answer) or
 * "C\tURL[\t=[\tNAME\tVALUE]...]" (send it to URL, when not empty, with exactly these headers
 * when "=" follows). Returns whether the request is blocked; any failure lets it go as it is. */
static gboolean filter_blocks(WebKitWebPage *page, WebKitURIRequest *request) {
    if (!filter_address) return FALSE;
    if (filter_fd < 0) filter_fd = filter_connect();
    if (filter_fd < 0) return FALSE;
    const char *method = webkit_uri_request_get_http_method(request);
    const char *page_uri = webkit_web_page_get_uri(page);
    char *real = real_uri(webkit_uri_request_get_uri(request));
    char *page_real = page_uri ? real_uri(page_uri) : g_strdup("");
    GString *question = g_string_new(method ? method : "GET");
    append_field(question, real);
    append_field(question, page_real);
    g_string_append_printf(question, "\t%" G_GUINT64_FORMAT, webkit_web_page_get_id(page));
    SoupMessageHeaders *request_headers = webkit_uri_request_get_http_headers(request);
    if (request_headers) {
        SoupMessageHeadersIter iter;
        const char *name;
        const char *value;
        soup_message_headers_iter_init(&iter, request_headers);
        while (soup_message_headers_iter_next(&iter, &name, &value)) {
            append_field(question, name);
            append_field(question, value);
        }
    }
    g_string_append_c(question, '\n');
    g_free(real);
    g_free(page_real);
    /* MSG_NOSIGNAL: a browser gone away must not kill the web process with SIGPIPE. */
    gboolean sent = send(filter_fd, question->str, question->len, MSG_NOSIGNAL) == (ssize_t)question->len;
    g_string_free(question, TRUE);
    char *answer = sent ? read_answer() : NULL;
    if (answer && strcmp(answer, "W") == 0) {
        g_free(answer);
        set_read_bound(70);
        answer = read_answer();
        set_read_bound(5);
    }
    if (!answer) {
        /* A timeout or a closed server: start afresh next time, and let this request go. */
        close(filter_fd);
        filter_fd = -1;
        return FALSE;
    }
    gboolean block = answer[0] == 'B';
    if (answer[0] == 'C') {
        char **fields = g_strsplit(answer, "\t", -1);
        guint count = g_strv_length(fields);
        if (count > 1 && fields[1][0]) {
            char *target = unescape_field(fields[1]);
            webkit_uri_request_set_uri(request, target);
            g_free(target);
        }
        if (count > 2 && strcmp(fields[2], "=") == 0 && request_headers) {
            /* The headers not in the list go; those in it replace their namesakes. */
            GHashTable *kept = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
            for (guint i = 3; i + 1 < count; i += 2) g_hash_table_add(kept, g_ascii_strdown(fields[i], -1));
            GPtrArray *gone = g_ptr_array_new_with_free_func(g_free);
            SoupMessageHeadersIter iter;
            const char *name;
            const char *value;
            soup_message_headers_iter_init(&iter, request_headers);
            while (soup_message_headers_iter_next(&iter, &name, &value)) {
                char *lower = g_ascii_strdown(name, -1);
                if (!g_hash_table_contains(kept, lower)) g_ptr_array_add(gone, g_strdup(name));
                g_free(lower);
            }
            for (guint i = 0; i < gone->len; i++) {
                soup_message_headers_remove(request_headers, g_ptr_array_index(gone, i));
            }
            g_ptr_array_free(gone, TRUE);
            g_hash_table_destroy(kept);
            for (guint i = 3; i + 1 < count; i += 2) {
                char *header = unescape_field(fields[i]);
                char *text = unescape_field(fields[i + 1]);
                soup_message_headers_replace(request_headers, header, text);
                g_free(header);
                g_free(text);
            }
        }
        g_strfreev(fields);
    }
    g_free(answer);
    return block;
}

/* The host of the page's mirrored document, kept on the page. The page's URI will not do
 * alone: it turns to a navigation's URL when the navigation starts, so it is already the new
 * document's when that document is requested, and it stays so when the navigation never
 * commits (a 204, a download), while the mirrored document is still shown. It is forgotten
 * when a document loads outside the mirror scheme. */
static const char *mirrored_host_key = "headway-mirrored-host";

static void on_document_loaded(WebKitWebPage *page, gpointer user_data) {
    (void)user_data;
    const char *page_uri = webkit_web_page_get_uri(page);
    gboolean mirrored = page_uri && g_str_has_prefix(page_uri, "headway-http");
    g_object_set_data_full(G_OBJECT(page), mirrored_host_key, mirrored ? host_of(page_uri) : NULL, g_free);
}

static void mirror_request(WebKitWebPage *page, WebKitURIRequest *request, const char *uri, gboolean redirected) {
    const char *page_uri = webkit_web_page_get_uri(page);
    if (!page_uri) return;
    if (g_str_has_prefix(page_uri, "headway-http")) {
        g_object_set_data_full(G_OBJECT(page), mirrored_host_key, host_of(page_uri), g_free);
    } else if (redirected || (!g_object_get_data(G_OBJECT(page), mirrored_host_key) && strcmp(uri, page_uri) != 0)) {
        /* A plain page's subresources stay as they are, and so does a request halfway through
         * a redirect that WebKit's own network stack follows. What is left: the main document
         * of a navigation (brought into the mirror scheme when its host is eligible), and the
         * requests of a mirrored page still shown while the page's URI is already a
         * navigation's. */
        return;
    }
    const char *rest;
    const char *scheme;
    if (g_str_has_prefix(uri, "http://")) {
        scheme = "headway-http";
        rest = uri + strlen("http");
    } else if (g_str_has_prefix(uri, "https://")) {
        scheme = "headway-https";
        rest = uri + strlen("https");
    } else {
        return;
    }
    const char *page_host = g_object_get_data(G_OBJECT(page), mirrored_host_key);
    char *host = host_of(uri);
    gboolean eligible = host && (all_hosts || (page_host && strcmp(host, page_host) == 0) ||
                                 (extra_hosts && g_hash_table_contains(extra_hosts, host)));
    if (eligible) {
        char *mirrored = g_strconcat(scheme, rest, NULL);
        webkit_uri_request_set_uri(request, mirrored);
        g_free(mirrored);
    }
    g_free(host);
}

static gboolean is_cookie_bridge(const char *uri) {
    if (!g_str_has_prefix(uri, "headway-http")) return FALSE;
    GUri *parsed = g_uri_parse(uri, G_URI_FLAGS_NONE, NULL);
    if (!parsed) return FALSE;
    gboolean bridge = g_strcmp0(g_uri_get_path(parsed), "/.well-known/headway-cookie") == 0;
    g_uri_unref(parsed);
    return bridge;
}

static gboolean on_send_request(WebKitWebPage *page, WebKitURIRequest *request,
                                WebKitURIResponse *redirected_response, gpointer user_data) {
    (void)user_data;
    const char *uri = webkit_uri_request_get_uri(request);
    if (!uri) return FALSE;
    /* A boosted page's document.cookie (MirrorCookies.swift) is no request of the page's own. */
    if (is_cookie_bridge(uri)) return FALSE;
    SoupMessageHeaders *request_headers = webkit_uri_request_get_http_headers(request);
    if (request_headers && headers) {
        for (guint i = 0; i + 1 < headers->len; i += 2) {
            soup_message_headers_replace(request_headers, g_ptr_array_index(headers, i),
                                         g_ptr_array_index(headers, i + 1));
        }
    }
    if (is_blocked(uri) || filter_blocks(page, request)) {
        char *real = real_uri(uri);
        WebKitUserMessage *message = webkit_user_message_new("headway-blocked", g_variant_new_take_string(real));
        webkit_web_page_send_message_to_view(page, message, NULL, NULL, NULL);
        return TRUE;
    }
    /* An interceptor may have sent it elsewhere. */
    uri = webkit_uri_request_get_uri(request);
    if (mirror && uri) mirror_request(page, request, uri, redirected_response != NULL);
    return FALSE;
}

static void on_page_created(WebKitWebExtension *extension, WebKitWebPage *page, gpointer user_data) {
    (void)extension;
    (void)user_data;
    g_signal_connect(page, "send-request", G_CALLBACK(on_send_request), NULL);
    /* The view's web process id, for the browser's memory watch (WebKit does not expose it). */
    WebKitUserMessage *pid = webkit_user_message_new("headway-pid", g_variant_new_int32((gint32)getpid()));
    webkit_web_page_send_message_to_view(page, pid, NULL, NULL, NULL);
    if (mirror) g_signal_connect(page, "document-loaded", G_CALLBACK(on_document_loaded), NULL);
}

static void read_settings(GVariant *settings) {
    GVariantIter *iter = NULL;
    const char *text;
    const char *value;
    g_variant_lookup(settings, "mirror", "b", &mirror);
    g_variant_lookup(settings, "allHosts", "b", &all_hosts);
    if (g_variant_lookup(settings, "extraHosts", "as", &iter)) {
        while (g_variant_iter_next(iter, "&s", &text)) g_hash_table_add(extra_hosts, g_ascii_strdown(text, -1));
        g_variant_iter_free(iter);
    }
    if (g_variant_lookup(settings, "headers", "a(ss)", &iter)) {
        while (g_variant_iter_next(iter, "(&s&s)", &text, &value)) {
            g_ptr_array_add(headers, g_strdup(text));
            g_ptr_array_add(headers, g_strdup(value));
        }
        g_variant_iter_free(iter);
    }
    g_variant_lookup(settings, "filter", "s", &filter_address);
    if (g_variant_lookup(settings, "block", "as", &iter)) {
        while (g_variant_iter_next(iter, "&s", &text)) g_ptr_array_add(blocked, g_pattern_spec_new(text));
        g_variant_iter_free(iter);
    }
    const char *world = NULL;
    const char *runner = NULL;
    const char *isolated = NULL;
    if (g_variant_lookup(settings, "isolatedWorld", "&s", &world)
        && g_variant_lookup(settings, "pageRunner", "&s", &runner)
        && g_variant_lookup(settings, "isolatedBridge", "&s", &isolated)) {
        headway_bridge_start(world, runner, isolated);
    }
}

G_MODULE_EXPORT void webkit_web_extension_initialize_with_user_data(WebKitWebExtension *extension,
                                                                     const GVariant *user_data) {
    extra_hosts = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    headers = g_ptr_array_new_with_free_func(g_free);
    blocked = g_ptr_array_new_with_free_func((GDestroyNotify)g_pattern_spec_free);
    if (user_data && g_variant_is_of_type((GVariant *)user_data, G_VARIANT_TYPE("a{sv}"))) {
        read_settings((GVariant *)user_data);
    }
    g_signal_connect(extension, "page-created", G_CALLBACK(on_page_created), NULL);
}
