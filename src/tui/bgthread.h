/* SPDX-License-Identifier: MIT */
/* Background threads of the TUI (the Characterisation job, the Timeline index): they run at a
 * lower priority so that keys and redraws on the UI thread get the cores first. */
#ifndef IODFG_TUI_BGTHREAD_H
#define IODFG_TUI_BGTHREAD_H

#include <pthread.h>

/* Start fn(arg) on a new joinable thread *th at nice +10 (per thread on Linux; elsewhere at
 * the normal priority). 0, or -1 when no thread could be started (run fn inline then). */
int tui_bgthread_start(pthread_t *th, void *(*fn)(void *), void *arg);

#endif
