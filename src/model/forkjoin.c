/* SPDX-License-Identifier: MIT */
/* Two-way fork-join over POSIX threads (iodfg/forkjoin.h). */
#include "config.h"

#include "iodfg/forkjoin.h"

void iodfg_fork_start(struct iodfg_fork *f, int want_thread, enum iodfg_fork_kind kind,
                      void *(*task)(void *), void *arg)
{
    f->task = task;
    f->arg = arg;
    f->kind = kind;
    f->started = want_thread && pthread_create(&f->thread, NULL, task, arg) == 0;
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
