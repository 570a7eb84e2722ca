#include "headway_shims.h"
#include <math.h>

/* A user's input, made as GdkEvents and handed to GTK (gtk_main_do_event), as WebKit's own
 * automation does (UIProcess/Automation/gtk/WebAutomationSessionGtk.cpp): the page sees trusted
 * events. Each view keeps its pointer position, held buttons and modifiers, and the time of its
 * events, in an HwInput attached to it, so that later events carry the state mask a user's would. */

typedef struct {
    double x, y;
    guint buttons;   /* GDK_BUTTONn_MASK of the buttons held */
    guint modifiers; /* GDK_SHIFT_MASK, GDK_CONTROL_MASK, GDK_MOD1_MASK, GDK_META_MASK held */
    guint32 time;    /* of the latest event, in ms; only ever grows */
    guint32 last_press;
    gboolean menu_off;
} HwInput;

static HwInput *hw_input(GtkWidget *view) {
    HwInput *input = g_object_get_data(G_OBJECT(view), "headway-input");
    if (!input) {
        input = g_new0(HwInput, 1);
        g_object_set_data_full(G_OBJECT(view), "headway-input", input, g_free);
    }
    return input;
}

/* Event times go forward, and never less than `gap` ms after the latest press. */
static guint32 hw_input_time(HwInput *input, guint32 gap) {
    guint32 now = (guint32)(g_get_monotonic_time() / 1000);
    guint32 time = input->time + 1;
    if (input->last_press && input->last_press + gap > time) time = input->last_press + gap;
    if (now > time) time = now;
    input->time = time;
    return time;
}

static GdkDevice *hw_device(GtkWidget *view, gboolean keyboard) {
    GdkSeat *seat = gdk_display_get_default_seat(gtk_widget_get_display(view));
    if (!seat) return NULL;
    return keyboard ? gdk_seat_get_keyboard(seat) : gdk_seat_get_pointer(seat);
}

/* The signal GTK emits on a widget for an event of `type`. */
static const char *hw_event_signal(GdkEventType type) {
    switch (type) {
    case GDK_MOTION_NOTIFY: return "motion-notify-event";
    case GDK_BUTTON_PRESS: return "button-press-event";
    case GDK_BUTTON_RELEASE: return "button-release-event";
    case GDK_SCROLL: return "scroll-event";
    case GDK_KEY_PRESS: return "key-press-event";
    default: return "key-release-event";
    }
}

/* Straight to the view: gtk_main_do_event would also run GTK's tooltip and grab handling,
 * which asks X about the pointer on the offscreen window and fails (BadWindow). A hidden page's
 * window is not viewable, and gtk_widget_event drops the input of such a window: it goes to the
 * view's own handler then, as a minimized window still takes WebDriver's input. */
static void hw_send(GtkWidget *view, GdkEvent *event, gboolean keyboard) {
    GdkDevice *device = hw_device(view, keyboard);
    if (device) gdk_event_set_device(event, device);
    if (gdk_window_is_viewable(event->any.window)) {
        gtk_widget_event(view, event);
    } else {
        gboolean handled = FALSE;
        g_signal_emit_by_name(view, hw_event_signal(event->type), event, &handled);
    }
    gdk_event_free(event);
}

static guint hw_button_mask(guint button) {
    switch (button) {
    case 1: return GDK_BUTTON1_MASK;
    case 2: return GDK_BUTTON2_MASK;
    case 3: return GDK_BUTTON3_MASK;
    default: return 0;
    }
}

static guint hw_modifier_mask(guint keyval) {
    switch (keyval) {
    case GDK_KEY_Shift_L: case GDK_KEY_Shift_R: return GDK_SHIFT_MASK;
    case GDK_KEY_Control_L: case GDK_KEY_Control_R: return GDK_CONTROL_MASK;
    case GDK_KEY_Alt_L: case GDK_KEY_Alt_R: return GDK_MOD1_MASK;
    case GDK_KEY_Meta_L: case GDK_KEY_Meta_R: return GDK_META_MASK;
    default: return 0;
    }
}

/* X11 keycodes (evdev + 8): MetaLeft, MetaRight, NumpadEqual, NumpadComma, Pause, Help, Cancel. */
static guint16 hw_own_keycode(guint keyval) {
    switch (keyval) {
    case GDK_KEY_Meta_L: return 133;
    case GDK_KEY_Meta_R: return 134;
    case GDK_KEY_KP_Equal: return 125;
    case GDK_KEY_KP_Separator: return 129;
    case GDK_KEY_Pause: return 127;
    case GDK_KEY_Help: return 146;
    case GDK_KEY_Cancel: return 231;
    default: return 0;
    }
}

static gboolean hw_no_context_menu(WebKitWebView *view, WebKitContextMenu *menu, GdkEvent *event,
                                   WebKitHitTestResult *hit, gpointer data) {
    (void)view; (void)menu; (void)event; (void)hit; (void)data;
    return TRUE;
}

/* WebKit asks to show a <select>'s popup (a press on it, or Space on it focused). GTK's menu
 * would grab the pointer and keyboard, which an offscreen window cannot have (GLib logs an
 * invalid cast to GdkWindowImplX11), and keep later keys from the view. No one sees a menu here:
 * Headway takes it and closes it on the main loop's next turn, which tells WebKit the popup
 * closed with the element's value as it was. The idle source holds a reference to the menu. */
static gboolean hw_close_option_menu(gpointer menu) {
    webkit_option_menu_close(WEBKIT_OPTION_MENU(menu));
    return G_SOURCE_REMOVE;
}

static gboolean hw_take_option_menu(WebKitWebView *view, WebKitOptionMenu *menu, gpointer event, gpointer rect,
                                    gpointer data) {
    (void)view; (void)event; (void)rect; (void)data;
    g_idle_add_full(G_PRIORITY_DEFAULT, hw_close_option_menu, g_object_ref(menu), g_object_unref);
    return TRUE;
}

/* The view is its window's only widget: keyboard focus has nowhere else to go. */
static gboolean hw_keep_focus(GtkWidget *toplevel, GtkDirectionType direction, gpointer view) {
    (void)toplevel; (void)direction;
    return gtk_widget_is_focus(GTK_WIDGET(view));
}

gboolean hw_input_ready(GtkWidget *view) {
    GdkWindow *window = gtk_widget_get_window(view);
    if (!window) return FALSE;
    GtkWidget *toplevel = gtk_widget_get_toplevel(view);
    HwInput *input = hw_input(view);
    if (!gtk_widget_is_focus(view)) gtk_widget_grab_focus(view);
    if (!gtk_widget_has_focus(view) && GTK_IS_WINDOW(toplevel)) {
        /* An offscreen window never gets the keyboard focus; tell the view it has it, as GTK
         * would (the window's own handler asks X, which knows nothing of offscreen windows).
         * Again whenever it lost it (a Tab past the page's last field hands focus to GTK). */
        GdkEvent *focus = gdk_event_new(GDK_FOCUS_CHANGE);
        focus->focus_change.window = g_object_ref(window);
        focus->focus_change.send_event = TRUE;
        focus->focus_change.in = TRUE;
        GdkDevice *keyboard = hw_device(view, TRUE);
        if (keyboard) gdk_event_set_device(focus, keyboard);
        gtk_widget_send_focus_change(view, focus);
        gdk_event_free(focus);
    }
    if (!input->menu_off) {
        /* No one sees a context menu here, and an open one would keep the right button's
         * release from the page. */
        g_signal_connect(view, "context-menu", G_CALLBACK(hw_no_context_menu), NULL);
        g_signal_connect(view, "show-option-menu", G_CALLBACK(hw_take_option_menu), NULL);
        /* A Tab past the page's last field would move GTK's focus off the view, and the key
         * WebKit hands back to GTK then never reaches it: WebKit would drop the next key. */
        if (GTK_IS_WINDOW(toplevel)) g_signal_connect(toplevel, "focus", G_CALLBACK(hw_keep_focus), view);
        input->menu_off = TRUE;
    }
    return TRUE;
}

/* A coordinate or delta the caller gave, made safe to use and to convert to int: NaN is 0,
 * and the rest stays within +-`limit` (Headway's Swift API refuses such numbers already). */
static double hw_clamp(double value, double limit) {
    if (isnan(value)) return 0;
    return value < -limit ? -limit : value > limit ? limit : value;
}

/* Half of int's range: the root coordinates add the window's origin to these. */
/* Swift checks Limits.coordinate (the same number) first; this clamp only keeps the cast defined. */
#define HW_COORDINATE_LIMIT 1073741823.0
/* Smooth-scroll units; 1e6 CSS pixels are about 1e4 of them. */
#define HW_SCROLL_LIMIT 1000000.0

/* A pointer event of `type` at the pointer's position, with its window, time, root
 * coordinates and the held state filled in: the setup motion, button and scroll events share.
 * `gap` as for hw_input_time. */
static GdkEvent *hw_pointer_event(GtkWidget *view, HwInput *input, GdkEventType type, guint32 gap) {
    GdkWindow *window = gtk_widget_get_window(view);
    GdkEvent *event = gdk_event_new(type);
    event->any.window = g_object_ref(window);
    event->any.send_event = TRUE;
    int root_x = 0, root_y = 0;
    gdk_window_get_root_coords(window, (int)input->x, (int)input->y, &root_x, &root_y);
    guint32 time = hw_input_time(input, gap);
    /* As X reports it: the state before the event (a release still shows its button held). */
    guint state = input->buttons | input->modifiers;
    /* The three event structs name these fields alike, at different places. */
#define HW_POINTER_FIELDS(e) do { \
        (e).time = time; (e).x = input->x; (e).y = input->y; \
        (e).x_root = root_x; (e).y_root = root_y; (e).state = state; \
    } while (0)
    if (type == GDK_MOTION_NOTIFY) HW_POINTER_FIELDS(event->motion);
    else if (type == GDK_SCROLL) HW_POINTER_FIELDS(event->scroll);
    else HW_POINTER_FIELDS(event->button);
#undef HW_POINTER_FIELDS
    return event;
}

void hw_input_motion(GtkWidget *view, double x, double y) {
    if (!hw_input_ready(view)) return;
    HwInput *input = hw_input(view);
    input->x = hw_clamp(x, HW_COORDINATE_LIMIT);
    input->y = hw_clamp(y, HW_COORDINATE_LIMIT);
    hw_send(view, hw_pointer_event(view, input, GDK_MOTION_NOTIFY, 0), FALSE);
}

void hw_input_button(GtkWidget *view, gboolean press, guint button, gboolean new_sequence) {
    if (!hw_input_ready(view)) return;
    HwInput *input = hw_input(view);
    /* GTK counts a press soon after another at the same place as a double click: a press that
     * starts a new sequence comes well after the last one. */
    GdkEvent *event = hw_pointer_event(view, input, press ? GDK_BUTTON_PRESS : GDK_BUTTON_RELEASE,
                                       press && new_sequence ? 5000 : 0);
    if (press) input->last_press = event->button.time;
    event->button.button = button;
    if (press) input->buttons |= hw_button_mask(button);
    else input->buttons &= ~hw_button_mask(button);
    hw_send(view, event, FALSE);
}

void hw_input_scroll(GtkWidget *view, double dx, double dy) {
    if (!hw_input_ready(view)) return;
    HwInput *input = hw_input(view);
    GdkEvent *event = hw_pointer_event(view, input, GDK_SCROLL, 0);
    event->scroll.direction = GDK_SCROLL_SMOOTH;
    event->scroll.delta_x = hw_clamp(dx, HW_SCROLL_LIMIT);
    event->scroll.delta_y = hw_clamp(dy, HW_SCROLL_LIMIT);
    hw_send(view, event, FALSE);
}

void hw_input_key(GtkWidget *view, gboolean press, guint keyval) {
    if (!hw_input_ready(view)) return;
    HwInput *input = hw_input(view);
    GdkEvent *event = gdk_event_new(press ? GDK_KEY_PRESS : GDK_KEY_RELEASE);
    event->key.window = g_object_ref(gtk_widget_get_window(view));
    event->key.send_event = TRUE;
    event->key.time = hw_input_time(input, 0);
    event->key.keyval = keyval;
    /* As WebKit's automation: a modifier's press already shows it held, its release no more. */
    guint mask = hw_modifier_mask(keyval);
    if (press) input->modifiers |= mask;
    else input->modifiers &= ~mask;
    event->key.state = input->buttons | input->modifiers;
    /* The keypad's digits and decimal point type themselves only with NumLock on (GDK_MOD2_MASK). */
    if ((keyval >= GDK_KEY_KP_0 && keyval <= GDK_KEY_KP_9) || keyval == GDK_KEY_KP_Decimal) {
        event->key.state |= GDK_MOD2_MASK;
    }
    event->key.is_modifier = mask != 0;
    /* GTK mishandles a key event without a real hardware keycode. WebKit takes KeyboardEvent.code
       from it: the keys a US keymap puts on another key's level, or on none, get their own. */
    GdkKeymapKey *keys = NULL;
    int count = 0;
    GdkKeymap *keymap = gdk_keymap_get_for_display(gtk_widget_get_display(view));
    guint16 own = hw_own_keycode(keyval);
    if (own != 0) {
        event->key.hardware_keycode = own;
    } else if (gdk_keymap_get_entries_for_keyval(keymap, keyval, &keys, &count) && count > 0) {
        event->key.hardware_keycode = (guint16)keys[0].keycode;
        event->key.group = (guint8)keys[0].group;
    }
    g_free(keys);
    hw_send(view, event, TRUE);
}

gboolean hw_input_keyval_needs_shift(GtkWidget *view, guint keyval) {
    GdkKeymapKey *keys = NULL;
    int count = 0;
    GdkKeymap *keymap = gdk_keymap_get_for_display(gtk_widget_get_display(view));
    gboolean shifted = FALSE;
    if (gdk_keymap_get_entries_for_keyval(keymap, keyval, &keys, &count) && count > 0) {
        shifted = keys[0].level == 1;
    }
    g_free(keys);
    return shifted;
}

guint hw_input_held(GtkWidget *view, gboolean buttons) {
    HwInput *input = hw_input(view);
    return buttons ? input->buttons : input->modifiers;
}

double hw_input_pointer(GtkWidget *view, gboolean vertical) {
    HwInput *input = hw_input(view);
    return vertical ? input->y : input->x;
}
