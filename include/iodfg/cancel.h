/* SPDX-License-Identifier: MIT */
/* A request, from another thread, that a long computation stop early: a front-end sets it when
 * the result it waits for is no longer wanted (its inputs changed). Computations that take one
 * look at it now and then, and when it is set they free what they built and fail with
 * IODFG_E_CANCELLED. A NULL request is never set. */
#ifndef IODFG_CANCEL_H
#define IODFG_CANCEL_H

#include <stdatomic.h>

struct iodfg_cancel {
    atomic_int requested;
};

void iodfg_cancel_init(struct iodfg_cancel *c);
void iodfg_cancel_request(struct iodfg_cancel *c);
/* Whether c was set (a relaxed look: one a little late only stops a little later). */
int iodfg_cancel_requested(const struct iodfg_cancel *c);

#endif
