#define _GNU_SOURCE
#include "headway_shims.h"

#include <dlfcn.h>
#include <glib.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Software GL, loaded ahead ----------------------------------------------------------
 * On Headway's own Xvfb, GTK and WebKit load Mesa's software driver (GLX, EGL and the DRI
 * driver, which links LLVM) on the engine thread, and resolving its symbols takes about
 * 100 ms. Loading the same files on another thread while Xvfb starts does that work on the
 * other core; the later dlopen calls then find them loaded. The loader identifies files by
 * device and inode, so a different path to the same file still counts. Nothing is unloaded. */

static void *hw_gl_preload_run(void *unused) {
    (void)unused;
    /* libepoxy's and libglvnd's, with their flags. */
    dlopen("libGLX.so.1", RTLD_LAZY | RTLD_LOCAL);
    dlopen("libGLESv2.so.2", RTLD_LAZY | RTLD_LOCAL);
    dlopen("libGLX_mesa.so.0", RTLD_LAZY | RTLD_LOCAL);
    dlopen("libEGL_mesa.so.0", RTLD_LAZY | RTLD_LOCAL);
    /* Mesa opens its DRI driver with these flags, from LIBGL_DRIVERS_PATH or its own
     * directory, <libdir>/dri; libdir is where GLib itself was loaded from. */
    const char *dirs = getenv("LIBGL_DRIVERS_PATH");
    char path[PATH_MAX];
    if (dirs && *dirs) {
        const char *end = strchr(dirs, ':');
        int length = end ? (int)(end - dirs) : (int)strlen(dirs);
        snprintf(path, sizeof path, "%.*s/swrast_dri.so", length, dirs);
    } else {
        Dl_info info;
        if (!dladdr((void *)g_main_context_default, &info) || !info.dli_fname) return NULL;
        const char *slash = strrchr(info.dli_fname, '/');
        if (!slash) return NULL;
        snprintf(path, sizeof path, "%.*s/dri/swrast_dri.so", (int)(slash - info.dli_fname), info.dli_fname);
    }
    dlopen(path, RTLD_NOW | RTLD_GLOBAL);
    return NULL;
}

void hw_gl_preload_start(void) {
    pthread_t thread;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&thread, &attributes, hw_gl_preload_run, NULL) == 0) {
        /* Named for profiles. */
        pthread_setname_np(thread, "headway:gl-load");
    }
    pthread_attr_destroy(&attributes);
}
