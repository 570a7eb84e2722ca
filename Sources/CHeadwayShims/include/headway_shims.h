#ifndef HEADWAY_SHIMS_H
#define HEADWAY_SHIMS_H

#include <webkit2/webkit2.h>

#pragma clang assume_nonnull begin

/// Schedules `fn(data)` once on the default GLib main context, never synchronously.
/// `fn` runs on the thread that iterates that context; the caller owns `data` until then.
void hw_invoke(void (*fn)(void *_Nullable data), void *_Nullable data);

/// Connects a signal handler; `destroy` runs exactly once when the handler is disconnected
/// or the instance is finalized. Returns the handler id.
gulong hw_signal_connect(gpointer instance, const char *signal, GCallback handler,
                         gpointer _Nullable data, GClosureNotify _Nullable destroy);

/// Creates a web view bound to `context` and `manager` (g_object_new is variadic).
WebKitWebView *hw_web_view_new(WebKitWebContext *context, WebKitUserContentManager *manager);
/* A view for a window `related` opens: same web process and context, its own content manager. */
WebKitWebView *hw_web_view_new_related(WebKitWebView *related, WebKitUserContentManager *manager);

/// Creates an ephemeral or persistent web context. With `memory_limit_mb` > 0, its web processes
/// are killed (reason WEBKIT_WEB_PROCESS_EXCEEDED_MEMORY_LIMIT) once they use that much memory,
/// checked every second.
WebKitWebContext *hw_web_context_new(gboolean ephemeral, guint memory_limit_mb);

/// Creates a SoupServer with a Server header (soup_server_new is variadic).
SoupServer *hw_soup_server_new(const char *server_header);

/// Creates a SoupSession with these connection limits (soup_session_new_with_options is variadic).
SoupSession *hw_soup_session_new(int max_conns, int max_conns_per_host);

/// Gives `view` GTK's keyboard focus (a focus-in event whenever it lacks it), keeps that focus on
/// it, and turns its context menu off, once. Returns false when the view is not realized.
gboolean hw_input_ready(GtkWidget *view);

/// Moves the pointer to (`x`, `y`) in `view`'s coordinates (CSS pixels at zoom 1).
void hw_input_motion(GtkWidget *view, double x, double y);

/// Presses or releases GDK `button` (1 left, 2 middle, 3 right) where the pointer is. A press
/// with `new_sequence` never counts as the second click of a double click.
void hw_input_button(GtkWidget *view, gboolean press, guint button, gboolean new_sequence);

/// Turns the wheel where the pointer is by smooth-scroll deltas (units of WebKit's choosing).
void hw_input_scroll(GtkWidget *view, double dx, double dy);

/// Presses or releases the key `keyval`, with the modifiers and buttons held; a modifier key's
/// press and release change the modifiers held.
void hw_input_key(GtkWidget *view, gboolean press, guint keyval);

/// Whether `keyval` needs Shift on the keyboard's layout (an uppercase letter, `!`).
gboolean hw_input_keyval_needs_shift(GtkWidget *view, guint keyval);

/// The GDK masks held on `view`: its mouse buttons', or else its modifiers'.
guint hw_input_held(GtkWidget *view, gboolean buttons);

/// The pointer's position on `view`: `y` when `vertical`, else `x`.
double hw_input_pointer(GtkWidget *view, gboolean vertical);

/// A stream that reads `base` (a new reference is taken) no faster than `bytes_per_second`,
/// counted from its first read; only asynchronous reads are paced.
GInputStream *hw_paced_input_stream_new(GInputStream *base, double bytes_per_second);

/// Makes `message` accept any TLS certificate when `accept_any_certificate`, and answer an HTTP
/// authentication challenge once with `user` and `password` when `user` is not NULL (a second
/// challenge, after a refusal, goes unanswered). The strings are copied.
void hw_soup_message_answer(SoupMessage *message, gboolean accept_any_certificate, const char *_Nullable user,
                            const char *_Nullable password);

/// Starts `Xvfb -displayfd`, waits until it is ready and returns its display number or -1.
/// The child gets PR_SET_PDEATHSIG, so it dies with the forking thread (call this from a thread
/// that lives as long as the process), however the process ends (a signal included).
int hw_xvfb_start(const char *xvfb_path, int timeout_ms, char *_Nullable error_buf, int error_len);

/// Replaces GDK's X I/O error handler (which exits with 1 after a message): when the X server
/// goes away, writes `line` and a newline to stderr, stops Xvfb if Headway started one, and
/// ends the process with `status` (Xlib does not let a process go on after that error).
/// Returns false when libX11 is not loaded.
gboolean hw_x_io_error_install(const char *line, int status);

/// Names the calling thread (as seen in /proc and debuggers).
void hw_set_thread_name(const char *name);

/// Pid of the running Xvfb or 0.
int hw_xvfb_pid(void);

/// Loads Mesa's software GL (GLX, EGL, the DRI driver) on a background thread, so that GTK and
/// WebKit find it loaded; for Headway's own Xvfb, which has no other GL.
void hw_gl_preload_start(void);

/// Sets the environment variable `name` to `value` without freeing anything another thread may
/// be reading (glibc's setenv frees the array when it adds a variable). Returns 0, or -1 when
/// `name` is empty or has '=', or memory runs out.
int hw_environment_set(const char *name, const char *value);

/// Removes CAP_SYS_NICE from the calling thread's effective and bounding sets, so that WebKit,
/// started from this thread, cannot make its threads real-time (here or in the processes it
/// starts). Returns 1 when something changed, 0 when the thread did not have it, -1 on error.
int hw_drop_realtime_capability(void);


/// Called once per reference found in an HTML document. `kind` is one of "base", "anchor",
/// "image", "srcset", "script", "stylesheet", "preload", "icon", "style" (inline CSS text).
typedef void (*hw_html_ref_callback)(const char *kind, const char *value, void *_Nullable context);

/// Parses HTML with libxml2's HTML parser (thread-safe for separate calls once hw_html_init ran)
/// and reports every subresource reference in document order. `encoding` may be NULL, in which
/// case the parser uses the document's <meta charset>.
void hw_html_extract(const char *html, int length, const char *_Nullable encoding,
                     hw_html_ref_callback callback, void *_Nullable context);

/// Initialises libxml2; call once before hw_html_extract is used from several threads.
void hw_html_init(void);

#pragma clang assume_nonnull end

#endif
