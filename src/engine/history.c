/* SPDX-License-Identifier: MIT */
/* Undo/redo as a capped list of snapshots with a current position. */
#include "config.h"

#include "iodfg/history.h"

#include <stdlib.h>
#include <string.h>

struct snapshot {
    void *data;
    size_t len;
};

struct iodfg_history {
    struct snapshot *s; /* s[0] oldest .. s[n-1] newest */
    size_t n, cap;
    size_t cur; /* index of the current state; meaningless when n == 0 */
};

struct iodfg_history *iodfg_history_new(size_t cap)
{
    if (cap == 0) {
        return NULL;
    }
    struct iodfg_history *u = calloc(1, sizeof(*u));
    if (!u) {
        return NULL;
    }
    u->s = calloc(cap, sizeof(*u->s));
    if (!u->s) {
        free(u);
        return NULL;
    }
    u->cap = cap;
    return u;
}

static void drop_from(struct iodfg_history *u, size_t i)
{
    for (size_t k = i; k < u->n; k++) {
        free(u->s[k].data);
    }
    u->n = i;
}

void iodfg_history_clear(struct iodfg_history *u)
{
    drop_from(u, 0);
    u->cur = 0;
}

void iodfg_history_free(struct iodfg_history *u)
{
    if (!u) {
        return;
    }
    iodfg_history_clear(u);
    free(u->s);
    free(u);
}

int iodfg_history_push(struct iodfg_history *u, const void *data, size_t len)
{
    if (u->n && u->s[u->cur].len == len && memcmp(u->s[u->cur].data, data, len) == 0) {
        return 0;
    }
    void *copy = malloc(len ? len : 1);
    if (!copy) {
        return -1;
    }
    if (len) {
        memcpy(copy, data, len);
    }
    if (u->n) {
        drop_from(u, u->cur + 1);
    }
    if (u->n == u->cap) {
        free(u->s[0].data);
        memmove(u->s, u->s + 1, (u->n - 1) * sizeof(*u->s));
        u->n--;
    }
    u->s[u->n] = (struct snapshot){copy, len};
    u->cur = u->n++;
    return 0;
}

const void *iodfg_history_current(const struct iodfg_history *u, size_t *len)
{
    if (u->n == 0) {
        return NULL;
    }
    if (len) {
        *len = u->s[u->cur].len;
    }
    return u->s[u->cur].data;
}

int iodfg_history_can_undo(const struct iodfg_history *u)
{
    return u->n > 0 && u->cur > 0;
}

int iodfg_history_can_redo(const struct iodfg_history *u)
{
    return u->n > 0 && u->cur + 1 < u->n;
}

const void *iodfg_history_undo(struct iodfg_history *u, size_t *len)
{
    if (!iodfg_history_can_undo(u)) {
        return NULL;
    }
    u->cur--;
    return iodfg_history_current(u, len);
}

const void *iodfg_history_redo(struct iodfg_history *u, size_t *len)
{
    if (!iodfg_history_can_redo(u)) {
        return NULL;
    }
    u->cur++;
    return iodfg_history_current(u, len);
}

size_t iodfg_history_count(const struct iodfg_history *u)
{
    return u->n;
}
