/* SPDX-License-Identifier: MIT */
/* Fork-join over POSIX threads: two-way, and pools of workers (iodfg/forkjoin.h). */
#include "config.h"

#include "iodfg/forkjoin.h"

void iodfg_fork_start(struct iodfg_fork *f, int want_thread, enum iodfg_fork_kind kind,
                      void *(*task)(void *), void *arg)
{
    f->task = task;
    f->arg = arg;
    f->kind = kind;
    f->started =
        want_thread && iodfg_cpu_count() > 1 && pthread_create(&f->thread, NULL, task, arg) == 0;
    f->pending = 1;
}

void iodfg_fork_join(struct iodfg_fork *f)
{
    if (!f->pending) {
        return;
    }
    f->pending = 0;
    if (f->started) {
        pthread_join(f->thread, NULL);
    } else if (f->kind == IODFG_FORK_TASK) {
        f->task(f->arg);
    }
}

int iodfg_fork_threaded(const struct iodfg_fork *f)
{
    return f->started;
}

unsigned iodfg_workers_start(pthread_t *t, unsigned n, void *(*task)(void *), void *arg)
{
    unsigned started = 0;
    while (started < n && pthread_create(&t[started], NULL, task, arg) == 0) {
        started++;
    }
    return started;
}

void iodfg_workers_join(pthread_t *t, unsigned started)
{
    for (unsigned i = 0; i < started; i++) {
        pthread_join(t[i], NULL);
    }
}
