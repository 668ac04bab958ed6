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

static inline void iodfg_cancel_init(struct iodfg_cancel *c)
{
    atomic_init(&c->requested, 0);
}

static inline void iodfg_cancel_request(struct iodfg_cancel *c)
{
    atomic_store_explicit(&c->requested, 1, memory_order_relaxed);
}

/* Whether c was set (relaxed: a look a little late only stops a little later). */
static inline int iodfg_cancel_requested(const struct iodfg_cancel *c)
{
    return c && atomic_load_explicit(&c->requested, memory_order_relaxed);
}

#endif
