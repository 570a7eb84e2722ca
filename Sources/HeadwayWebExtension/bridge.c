#include "headway_web_extension.h"

#include <string.h>

/* The isolated world's bridge to the page's world. Headway's own scripts (WebDriver's atoms among
 * them) run in an isolated world, where the page's scripts can neither see nor replace anything;
 * a user's script (WebDriver's Execute Script) must run in the page's own world, and DOM nodes
 * must cross between the two, which JavaScript alone cannot do (each world has its own wrapper for
 * a node). Here, for every frame:
 * - when the page's world gets a new global (before any of the page's scripts run), the page
 *   runner's source (from Headway, a function expression) is evaluated there and the function
 *   kept in C, out of the page's reach, with the built-ins it captured as they were then;
 * - when the isolated world gets a new global, the isolated source (a function expression) is
 *   called with a native function `call(source, nodes, payload, mode, done)` bound to that
 *   document's page runner (so a document restored from the back/forward cache keeps its own),
 *   and defines what scripts of that world use. `call` compiles `source` in the page's world (as WebKit's own
 *   automation does, so no Content-Security-Policy applies), hands `nodes` over as the page's
 *   wrappers and calls the page runner with (function, nodes, payload, mode, reply); the runner
 *   calls `reply(ok, text, nodes)` once, and `done` gets the same with the isolated world's
 *   wrappers. `call` returns null, or a compile error's message.
 * - `call(source, nodes, payload, mode, done, sandbox)` with a sandbox's name does the same in a
 *   world of that name instead of the page's (WebDriver BiDi's sandboxes: the page's DOM,
 *   globals of their own), whose runner is made on its first call in each document.
 * What a document's scripts hold, they hold through its own JavaScript objects, never from C: a
 * JSCValue kept in C protects its value from the collector, and a page runner kept by `call` (an
 * isolated-world object of the same document) made a cycle through that protection, so no
 * document was ever collected (about 1 MB a load, more on larger pages). `call` holds its runner
 * as a property, the isolated world holds `done` until it is called (its bridge's `waiting`),
 * and C keeps only weak references to both. The frame keeps its current document's runner, which
 * the next document's replaces. */

static char *page_runner_source = NULL;
static char *isolated_source = NULL;
static WebKitScriptWorld *isolated_world = NULL;

static const char *runner_key = "headway-page-runner";

/* The sandboxes' worlds by name, at most `most_sandboxes`. */
static GHashTable *sandboxes = NULL;
static const guint most_sandboxes = 64;

/* The world of the sandbox `name`: made on its first use; NULL past the bound. */
static WebKitScriptWorld *sandbox_world(const char *name) {
    if (!sandboxes) sandboxes = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_object_unref);
    WebKitScriptWorld *world = g_hash_table_lookup(sandboxes, name);
    if (world || g_hash_table_size(sandboxes) >= most_sandboxes) return world;
    char *world_name = g_strconcat("headway-sandbox ", name, NULL);
    world = webkit_script_world_new_with_name(world_name);
    g_free(world_name);
    g_hash_table_insert(sandboxes, g_strdup(name), world);
    return world;
}

typedef struct {
    GWeakRef frame;
    JSCWeakValue *runner; /* `call`'s: its document's page runner (the property `call` holds) */
    JSCWeakValue *done;   /* a reply's: the isolated world's callback, until it is called */
} BridgeData;

static BridgeData *bridge_data_new(WebKitFrame *frame, JSCValue *runner, JSCValue *done) {
    BridgeData *data = g_new0(BridgeData, 1);
    g_weak_ref_init(&data->frame, frame);
    data->runner = runner ? jsc_weak_value_new(runner) : NULL;
    data->done = done ? jsc_weak_value_new(done) : NULL;
    return data;
}

static void bridge_data_free(gpointer pointer) {
    BridgeData *data = pointer;
    g_weak_ref_clear(&data->frame);
    g_clear_object(&data->runner);
    g_clear_object(&data->done);
    g_free(data);
}

/* The frame behind `ref`, while it is still in its page: a frame's JavaScript can outlive it (a
 * removed iframe's promise settled from its parent), and WebKit's frame calls need a live one. */
G_GNUC_BEGIN_IGNORE_DEPRECATIONS
static WebKitFrame *live_frame(GWeakRef *ref) {
    WebKitFrame *frame = g_weak_ref_get(ref);
    if (frame && !webkit_frame_get_javascript_context_for_script_world(frame, webkit_script_world_get_default())) {
        g_clear_object(&frame);
    }
    return frame;
}
G_GNUC_END_IGNORE_DEPRECATIONS

/* Evaluates `source` in `context`; returns the value, or NULL with the exception's message in
 * `error` (cleared from the context). */
static JSCValue *evaluate(JSCContext *context, const char *source, const char *uri, char **error) {
    JSCValue *value = jsc_context_evaluate_with_source_uri(context, source, -1, uri, 1);
    JSCException *exception = jsc_context_get_exception(context);
    if (exception) {
        if (error) *error = g_strdup(jsc_exception_get_message(exception));
        jsc_context_clear_exception(context);
        g_clear_object(&value);
        return NULL;
    }
    return value;
}

/* The page runner of `frame`'s current document: the one made before its scripts ran, else one
 * made now (a document whose global was made before this extension was loaded, or one restored
 * from the back/forward cache whose isolated world is new). A new reference. */
static JSCValue *page_runner(WebKitFrame *frame) {
    JSCContext *context = webkit_frame_get_js_context(frame);
    JSCValue *runner = g_object_get_data(G_OBJECT(frame), runner_key);
    if (runner && jsc_value_get_context(runner) == context) {
        g_object_ref(runner);
    } else {
        runner = page_runner_source ? evaluate(context, page_runner_source, "headway-page-runner.js", NULL) : NULL;
    }
    g_object_unref(context);
    return runner;
}

/* The runner of the sandbox `name` in `frame`'s current document (`context`, that world's), made
 * on its first call there and kept on the frame. A new reference, or NULL. */
static JSCValue *sandbox_runner(WebKitFrame *frame, const char *name, JSCContext *context) {
    char *key = g_strconcat("headway-sandbox-runner ", name, NULL);
    JSCValue *runner = g_object_get_data(G_OBJECT(frame), key);
    if (runner && jsc_value_get_context(runner) == context) {
        g_object_ref(runner);
    } else {
        runner = page_runner_source ? evaluate(context, page_runner_source, "headway-page-runner.js", NULL) : NULL;
        if (runner) g_object_set_data_full(G_OBJECT(frame), key, g_object_ref(runner), g_object_unref);
    }
    g_free(key);
    return runner;
}

/* The nodes of `array` (a JavaScript array of one world) as `world`'s wrappers, in `context`;
 * anything that is not a node becomes null. */
G_GNUC_BEGIN_IGNORE_DEPRECATIONS
static JSCValue *nodes_in_world(JSCValue *array, WebKitFrame *frame, WebKitScriptWorld *world, JSCContext *context) {
    GPtrArray *converted = g_ptr_array_new_with_free_func(g_object_unref);
    if (array && jsc_value_is_array(array)) {
        JSCValue *length = jsc_value_object_get_property(array, "length");
        gint32 count = jsc_value_is_number(length) ? jsc_value_to_int32(length) : 0;
        g_object_unref(length);
        for (gint32 i = 0; i < count && i < 100000; i++) {
            JSCValue *item = jsc_value_object_get_property_at_index(array, (guint)i);
            WebKitDOMNode *node = jsc_value_is_object(item) ? webkit_dom_node_for_js_value(item) : NULL;
            JSCValue *wrapper =
                node ? webkit_frame_get_js_value_for_dom_object_in_script_world(frame, WEBKIT_DOM_OBJECT(node), world)
                     : NULL;
            g_ptr_array_add(converted, wrapper ? wrapper : jsc_value_new_null(context));
            g_object_unref(item);
        }
    }
    JSCValue *result = jsc_value_new_array_from_garray(context, converted);
    g_ptr_array_unref(converted);
    return result;
}
G_GNUC_END_IGNORE_DEPRECATIONS

/* The page runner's reply: the result crosses back to the isolated world, exactly once. */
static void page_reply(GPtrArray *arguments, gpointer user_data) {
    BridgeData *data = user_data;
    if (!data->done) return;
    /* NULL when the isolated world let it go (the call timed out there) or is gone. */
    JSCValue *done = jsc_weak_value_get_value(data->done);
    g_clear_object(&data->done);
    if (!done) return;
    JSCContext *isolated = jsc_value_get_context(done);
    WebKitFrame *frame = live_frame(&data->frame);
    gboolean ok = frame && arguments->len > 0 && jsc_value_to_boolean(g_ptr_array_index(arguments, 0));
    char *text = !frame ? g_strdup("the frame was removed before the script settled")
                 : arguments->len > 1 ? jsc_value_to_string(g_ptr_array_index(arguments, 1)) : g_strdup("");
    JSCValue *nodes = nodes_in_world(frame && arguments->len > 2 ? g_ptr_array_index(arguments, 2) : NULL, frame,
                                     isolated_world, isolated);
    JSCValue *ignored = jsc_value_function_call(done, G_TYPE_BOOLEAN, ok, G_TYPE_STRING, text ? text : "",
                                                JSC_TYPE_VALUE, nodes, G_TYPE_NONE);
    g_clear_object(&ignored);
    if (jsc_context_get_exception(isolated)) jsc_context_clear_exception(isolated);
    g_object_unref(done);
    g_object_unref(nodes);
    g_free(text);
    g_clear_object(&frame);
}

/* `call(source, nodes, payload, mode, done[, sandbox])`, as the isolated world sees it. */
static JSCValue *isolated_call(GPtrArray *arguments, gpointer user_data) {
    BridgeData *data = user_data;
    JSCContext *isolated = jsc_context_get_current();
    if (arguments->len < 5 || !jsc_value_is_function(g_ptr_array_index(arguments, 4))) {
        return jsc_value_new_string(isolated, "call(source, nodes, payload, mode, done) takes five arguments");
    }
    WebKitFrame *frame = live_frame(&data->frame);
    if (!frame) return jsc_value_new_string(isolated, "the frame is gone");
    JSCValue *sandbox = arguments->len > 5 ? g_ptr_array_index(arguments, 5) : NULL;
    char *name = sandbox && jsc_value_is_string(sandbox) ? jsc_value_to_string(sandbox) : NULL;
    WebKitScriptWorld *world = webkit_script_world_get_default();
    JSCContext *page;
    JSCValue *runner;
    if (name && *name) {
        world = sandbox_world(name);
        if (!world) {
            g_free(name);
            g_object_unref(frame);
            return jsc_value_new_string(isolated, "at most 64 sandboxes: a web process keeps every name it was given");
        }
        page = webkit_frame_get_js_context_for_script_world(frame, world);
        runner = sandbox_runner(frame, name, page);
    } else {
        page = webkit_frame_get_js_context(frame);
        runner = data->runner ? jsc_weak_value_get_value(data->runner) : NULL;
    }
    g_free(name);
    if (!runner) {
        g_object_unref(page);
        g_object_unref(frame);
        return jsc_value_new_string(isolated, "the page runner could not be made in this document");
    }
    char *source = jsc_value_to_string(g_ptr_array_index(arguments, 0));
    char *error = NULL;
    JSCValue *function = evaluate(page, source ? source : "", "headway-script.js", &error);
    g_free(source);
    JSCValue *answer;
    if (!function || !jsc_value_is_function(function)) {
        answer = jsc_value_new_string(isolated, error ? error : "the script is not a function");
    } else {
        JSCValue *nodes = nodes_in_world(g_ptr_array_index(arguments, 1), frame, world, page);
        char *payload = jsc_value_to_string(g_ptr_array_index(arguments, 2));
        char *mode = jsc_value_to_string(g_ptr_array_index(arguments, 3));
        JSCValue *reply = jsc_value_new_function_variadic(page, NULL, G_CALLBACK(page_reply),
                                                          bridge_data_new(frame, NULL, g_ptr_array_index(arguments, 4)),
                                                          bridge_data_free, G_TYPE_NONE);
        JSCValue *ignored = jsc_value_function_call(runner, JSC_TYPE_VALUE, function, JSC_TYPE_VALUE, nodes,
                                                    G_TYPE_STRING, payload ? payload : "null", G_TYPE_STRING,
                                                    mode ? mode : "sync", JSC_TYPE_VALUE, reply, G_TYPE_NONE);
        g_clear_object(&ignored);
        /* The runner catches what the script throws; anything left is the runner's own failure. */
        JSCException *exception = jsc_context_get_exception(page);
        answer = exception ? jsc_value_new_string(isolated, jsc_exception_get_message(exception))
                           : jsc_value_new_null(isolated);
        if (exception) jsc_context_clear_exception(page);
        g_object_unref(reply);
        g_object_unref(nodes);
        g_free(payload);
        g_free(mode);
    }
    g_clear_object(&function);
    g_free(error);
    g_object_unref(runner);
    g_object_unref(page);
    g_object_unref(frame);
    return answer;
}

/* A new document in `frame`: the sandbox runners of the last one go (each holds its document). */
static void forget_sandbox_runners(WebKitFrame *frame) {
    if (!sandboxes) return;
    GHashTableIter iter;
    gpointer name;
    g_hash_table_iter_init(&iter, sandboxes);
    while (g_hash_table_iter_next(&iter, &name, NULL)) {
        char *key = g_strconcat("headway-sandbox-runner ", (const char *)name, NULL);
        g_object_set_data(G_OBJECT(frame), key, NULL);
        g_free(key);
    }
}

static void on_page_world_cleared(WebKitScriptWorld *world, WebKitWebPage *page, WebKitFrame *frame, gpointer data) {
    (void)page;
    (void)data;
    forget_sandbox_runners(frame);
    JSCContext *context = webkit_frame_get_js_context_for_script_world(frame, world);
    JSCValue *runner = evaluate(context, page_runner_source, "headway-page-runner.js", NULL);
    g_object_unref(context);
    g_object_set_data_full(G_OBJECT(frame), runner_key, runner, runner ? g_object_unref : NULL);
}

static void on_isolated_world_cleared(WebKitScriptWorld *world, WebKitWebPage *page, WebKitFrame *frame,
                                      gpointer data) {
    (void)page;
    (void)data;
    JSCContext *context = webkit_frame_get_js_context_for_script_world(frame, world);
    JSCValue *install = evaluate(context, isolated_source, "headway-isolated-bridge.js", NULL);
    JSCValue *runner = page_runner(frame);
    if (install && jsc_value_is_function(install)) {
        JSCValue *call = jsc_value_new_function_variadic(context, "call", G_CALLBACK(isolated_call),
                                                         bridge_data_new(frame, runner, NULL), bridge_data_free,
                                                         JSC_TYPE_VALUE);
        /* The reference that keeps the runner while its document lives, and no longer. */
        if (runner) jsc_value_object_define_property_data(call, "runner", 0, runner);
        JSCValue *ignored = jsc_value_function_call(install, JSC_TYPE_VALUE, call, G_TYPE_NONE);
        g_clear_object(&ignored);
        if (jsc_context_get_exception(context)) jsc_context_clear_exception(context);
        g_object_unref(call);
    }
    g_clear_object(&install);
    g_clear_object(&runner);
    g_object_unref(context);
}

void headway_bridge_start(const char *world_name, const char *runner, const char *isolated) {
    if (!world_name || !*world_name || !runner || !isolated) return;
    page_runner_source = g_strdup(runner);
    isolated_source = g_strdup(isolated);
    isolated_world = webkit_script_world_new_with_name(world_name);
    g_signal_connect(webkit_script_world_get_default(), "window-object-cleared", G_CALLBACK(on_page_world_cleared),
                     NULL);
    g_signal_connect(isolated_world, "window-object-cleared", G_CALLBACK(on_isolated_world_cleared), NULL);
}
