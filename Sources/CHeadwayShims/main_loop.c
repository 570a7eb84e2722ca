#include "headway_shims.h"

/* Runs a function on the GLib main context's thread (the engine thread). */

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
