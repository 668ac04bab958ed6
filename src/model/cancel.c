/* SPDX-License-Identifier: MIT */
/* Requests to stop a computation early (iodfg/cancel.h). */
#include "config.h"

#include "iodfg/cancel.h"

void iodfg_cancel_init(struct iodfg_cancel *c)
{
    atomic_init(&c->requested, 0);
}

void iodfg_cancel_request(struct iodfg_cancel *c)
{
    atomic_store_explicit(&c->requested, 1, memory_order_relaxed);
}

int iodfg_cancel_requested(const struct iodfg_cancel *c)
{
    return c && atomic_load_explicit(&c->requested, memory_order_relaxed);
}
