#include "headway_shims.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

extern char **environ;

/* ---- Setting a variable while other threads read the environment ------------------------
 * Headway sets DISPLAY, GDK_SCALE and a few others when its first browser starts, while the
 * client's threads may be reading the environment (Foundation's Process.run copies it to start
 * a child). glibc's setenv grows the array with realloc when it adds a variable, freeing the
 * array those threads are reading: a client crashed in Process.run that way. Here nothing a
 * reader may hold is freed: a new variable goes into a copy of the array, published with one
 * pointer store, and a new value replaces one pointer in place. The old array and strings are
 * left allocated (a few hundred bytes, a handful of times per process), as glibc leaves the
 * strings it replaces. A later setenv by anyone copies from the array published here. */

static pthread_mutex_t hw_environment_lock = PTHREAD_MUTEX_INITIALIZER;

int hw_environment_set(const char *name, const char *value) {
    size_t name_length = strlen(name);
    if (name_length == 0 || strchr(name, '=')) return -1;
    size_t value_length = strlen(value);
    char *entry = malloc(name_length + value_length + 2);
    if (!entry) return -1;
    memcpy(entry, name, name_length);
    entry[name_length] = '=';
    memcpy(entry + name_length + 1, value, value_length + 1);

    pthread_mutex_lock(&hw_environment_lock);
    char **current = __atomic_load_n(&environ, __ATOMIC_ACQUIRE);
    size_t count = 0;
    for (; current && current[count]; count++) {
        if (strncmp(current[count], name, name_length) == 0 && current[count][name_length] == '=') {
            __atomic_store_n(&current[count], entry, __ATOMIC_RELEASE);
            pthread_mutex_unlock(&hw_environment_lock);
            return 0;
        }
    }
    char **grown = malloc((count + 2) * sizeof *grown);
    if (!grown) {
        pthread_mutex_unlock(&hw_environment_lock);
        free(entry);
        return -1;
    }
    if (count) memcpy(grown, current, count * sizeof *grown);
    grown[count] = entry;
    grown[count + 1] = NULL;
    __atomic_store_n(&environ, grown, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&hw_environment_lock);
    return 0;
}
