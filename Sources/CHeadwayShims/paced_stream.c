#include "headway_shims.h"

/* A GInputStream that hands out its base stream's bytes no faster than a given rate: each
 * asynchronous read takes at most a slice (1/20 s worth, at least 1 KiB) from the base stream and
 * completes once the bytes read so far are due at that rate since the first read. Only the
 * asynchronous read is paced (WebKit reads scheme responses asynchronously); a synchronous read
 * passes through. */

typedef struct {
    GInputStream parent;
    GInputStream *base;
    double bytes_per_second;
    gint64 started_us;
    guint64 delivered;
} HwPacedInputStream;

typedef struct {
    GInputStreamClass parent_class;
} HwPacedInputStreamClass;

G_DEFINE_TYPE(HwPacedInputStream, hw_paced_input_stream, G_TYPE_INPUT_STREAM)

static void hw_paced_finalize(GObject *object) {
    HwPacedInputStream *self = (HwPacedInputStream *)object;
    g_clear_object(&self->base);
    G_OBJECT_CLASS(hw_paced_input_stream_parent_class)->finalize(object);
}

static gssize hw_paced_read(GInputStream *stream, void *buffer, gsize count, GCancellable *cancellable,
                            GError **error) {
    HwPacedInputStream *self = (HwPacedInputStream *)stream;
    return g_input_stream_read(self->base, buffer, count, cancellable, error);
}

static gboolean hw_paced_close(GInputStream *stream, GCancellable *cancellable, GError **error) {
    HwPacedInputStream *self = (HwPacedInputStream *)stream;
    return g_input_stream_close(self->base, cancellable, error);
}

static gboolean hw_paced_release(gpointer data) {
    GTask *task = data;
    GCancellable *cancellable = g_task_get_cancellable(task);
    GError *error = NULL;
    if (g_cancellable_set_error_if_cancelled(cancellable, &error)) {
        g_task_return_error(task, error);
    } else {
        g_task_return_int(task, GPOINTER_TO_SIZE(g_task_get_task_data(task)));
    }
    g_object_unref(task);
    return G_SOURCE_REMOVE;
}

/* A paced read waiting for its bytes to come due: the timer completes it, or its cancellable
 * (WebKit stopped the request) does at once, whichever comes first. */
typedef struct {
    GTask *task;
    GSource *timer;
    GSource *cancelled;
} HwPaceWait;

static void hw_pace_wait_end(HwPaceWait *wait) {
    g_source_destroy(wait->timer);
    g_source_unref(wait->timer);
    if (wait->cancelled) {
        g_source_destroy(wait->cancelled);
        g_source_unref(wait->cancelled);
    }
    GTask *task = wait->task;
    g_free(wait);
    hw_paced_release(task);
}

static gboolean hw_pace_timer_fired(gpointer data) {
    hw_pace_wait_end(data);
    return G_SOURCE_REMOVE;
}

static gboolean hw_pace_cancelled(GCancellable *cancellable, gpointer data) {
    (void)cancellable;
    hw_pace_wait_end(data);
    return G_SOURCE_REMOVE;
}

static void hw_paced_base_read(GObject *source, GAsyncResult *result, gpointer data) {
    GTask *task = data;
    HwPacedInputStream *self = g_task_get_source_object(task);
    GError *error = NULL;
    gssize read = g_input_stream_read_finish(G_INPUT_STREAM(source), result, &error);
    if (read < 0) {
        g_task_return_error(task, error);
        g_object_unref(task);
        return;
    }
    self->delivered += (guint64)read;
    gint64 due = self->started_us + (gint64)((double)self->delivered / self->bytes_per_second * 1e6);
    gint64 wait_us = due - g_get_monotonic_time();
    g_task_set_task_data(task, GSIZE_TO_POINTER((gsize)read), NULL);
    if (read == 0 || wait_us <= 0) {
        hw_paced_release(task);
        return;
    }
    /* The task (and through it the stream) stays alive until the wait ends. */
    HwPaceWait *wait = g_new0(HwPaceWait, 1);
    wait->task = task;
    GMainContext *context = g_task_get_context(task);
    wait->timer = g_timeout_source_new((guint)MIN((wait_us + 999) / 1000, (gint64)G_MAXUINT));
    g_source_set_callback(wait->timer, hw_pace_timer_fired, wait, NULL);
    g_source_attach(wait->timer, context);
    GCancellable *cancellable = g_task_get_cancellable(task);
    if (cancellable) {
        wait->cancelled = g_cancellable_source_new(cancellable);
        g_source_set_callback(wait->cancelled, G_SOURCE_FUNC(hw_pace_cancelled), wait, NULL);
        g_source_attach(wait->cancelled, context);
    }
}

static void hw_paced_read_async(GInputStream *stream, void *buffer, gsize count, int priority,
                                GCancellable *cancellable, GAsyncReadyCallback callback, gpointer data) {
    HwPacedInputStream *self = (HwPacedInputStream *)stream;
    if (self->started_us == 0) self->started_us = g_get_monotonic_time();
    gsize slice = (gsize)MAX(1024.0, self->bytes_per_second / 20.0);
    GTask *task = g_task_new(stream, cancellable, callback, data);
    g_input_stream_read_async(self->base, buffer, MIN(count, slice), priority, cancellable, hw_paced_base_read, task);
}

static gssize hw_paced_read_finish(GInputStream *stream, GAsyncResult *result, GError **error) {
    (void)stream;
    return g_task_propagate_int(G_TASK(result), error);
}

static void hw_paced_input_stream_class_init(HwPacedInputStreamClass *klass) {
    G_OBJECT_CLASS(klass)->finalize = hw_paced_finalize;
    GInputStreamClass *stream = G_INPUT_STREAM_CLASS(klass);
    stream->read_fn = hw_paced_read;
    stream->close_fn = hw_paced_close;
    stream->read_async = hw_paced_read_async;
    stream->read_finish = hw_paced_read_finish;
}

static void hw_paced_input_stream_init(HwPacedInputStream *self) {
    (void)self;
}

GInputStream *hw_paced_input_stream_new(GInputStream *base, double bytes_per_second) {
    HwPacedInputStream *self = g_object_new(hw_paced_input_stream_get_type(), NULL);
    self->base = g_object_ref(base);
    self->bytes_per_second = bytes_per_second > 0 ? bytes_per_second : 1;
    return G_INPUT_STREAM(self);
}
