/* SPDX-License-Identifier: MIT */
/* Lower-priority background threads (bgthread.h). Not SCHED_IDLE: that would starve the job
 * on a busy login node, where the UI then waits for it forever. */
#include "config.h"

#include "tui/bgthread.h"

#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

struct bg_start {
    void *(*fn)(void *);
    void *arg;
};

static void *bg_main(void *p)
{
    struct bg_start s = *(struct bg_start *)p;
    free(p);
#ifdef SYS_gettid
    (void)setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), 10); // best effort
#endif
    return s.fn(s.arg);
}

int tui_bgthread_start(pthread_t *th, void *(*fn)(void *), void *arg)
{
    struct bg_start *s = malloc(sizeof(*s));
    if (!s) {
        return -1;
    }
    s->fn = fn;
    s->arg = arg;
    if (pthread_create(th, NULL, bg_main, s) != 0) {
        free(s);
        return -1;
    }
    return 0;
}
