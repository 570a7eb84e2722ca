#include "headway_shims.h"

#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* ---- No real-time threads -----------------------------------------------------------------
 * WebKit makes its IPC and scrolling threads SCHED_RR (WTF::RealTimeThreads) whenever
 * sched_setscheduler lets it: as root, or with CAP_SYS_NICE. Such a thread that spin-waits on
 * one of WebKit's locks (libpas yields in a loop) keeps the lock's normal-priority holder off
 * its core; with two of them on a two-core machine nothing else runs until the kernel's
 * real-time throttle (sched_rt_runtime_us, 950 ms of every second) steps in. Loads then stall
 * for about a second, a few times in a hundred. Without the capability WebKit's threads run at
 * normal priority, as they do for any other user. Both sets belong to the calling thread: called
 * on the engine thread before WebKit starts, it covers every thread and process WebKit creates
 * from there (the bounding set keeps the web and network processes from getting the capability
 * back at exec, as root would), and leaves the host application's other threads alone. */

int hw_drop_realtime_capability(void) {
    struct __user_cap_header_struct header = {.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0};
    struct __user_cap_data_struct data[2];
    if (syscall(SYS_capget, &header, data) != 0) return -1;
    const unsigned word = CAP_SYS_NICE / 32, bit = 1u << (CAP_SYS_NICE % 32);
    int changed = 0;
    if (prctl(PR_CAPBSET_READ, CAP_SYS_NICE, 0, 0, 0) == 1 && prctl(PR_CAPBSET_DROP, CAP_SYS_NICE, 0, 0, 0) == 0)
        changed = 1;
    if (data[word].effective & bit) {
        data[word].effective &= ~bit;
        if (syscall(SYS_capset, &header, data) != 0) return -1;
        changed = 1;
    }
    return changed;
}
