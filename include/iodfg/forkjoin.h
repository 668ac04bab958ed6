/* SPDX-License-Identifier: MIT */
/* Fork-join. Two-way: a task runs on a second thread while the caller does its own share, and the
 * join waits for it. Without a thread (none wanted, or none could be started) a task runs in the
 * join on the calling thread, so results never depend on whether threads exist; help (work the
 * caller's own loop also takes, such as the concurrency sweep's segments) is then skipped. */
#ifndef IODFG_FORKJOIN_H
#define IODFG_FORKJOIN_H

#include <pthread.h>

#include "iodfg/cpus.h"

enum iodfg_fork_kind {
    IODFG_FORK_TASK, /* must run: in the join when no thread ran it */
    IODFG_FORK_HELP, /* may be skipped: the caller does all of it without a thread */
};

struct iodfg_fork {
    void *(*task)(void *);
    void *arg;
    enum iodfg_fork_kind kind;
    pthread_t thread;
    int started; /* a thread runs task */
    int pending; /* a join is still due */
};

/* Start task(arg) on a second thread when want_thread is true, the process may run on more
 * than one processor, and a thread can be started. */
void iodfg_fork_start(struct iodfg_fork *f, int want_thread, enum iodfg_fork_kind kind,
                      void *(*task)(void *), void *arg);
/* Wait for the thread, or run a task here when no thread ran it. Once per start; a second
 * join does nothing. */
void iodfg_fork_join(struct iodfg_fork *f);
/* Whether a second thread runs (or ran) the task. */
int iodfg_fork_threaded(const struct iodfg_fork *f);

/* A pool of workers that share a queue of the caller's: start up to n threads running
 * task(arg) into t[0..n), and return how many started (fewer when the system refuses more;
 * the caller decides whether 0 is an error). */
unsigned iodfg_workers_start(pthread_t *t, unsigned n, void *(*task)(void *), void *arg);
/* Wait for the started workers. */
void iodfg_workers_join(pthread_t *t, unsigned started);

#endif
