/* SPDX-License-Identifier: MIT */
/* Undo/redo as a capped list of snapshots with a current position. */
#include "config.h"

#include "tui/undo.h"

#include <stdlib.h>
#include <string.h>

struct snapshot {
    void *data;
    size_t len;
};

struct tui_undo {
    struct snapshot *s; /* s[0] oldest .. s[n-1] newest */
    size_t n, cap;
    size_t cur; /* index of the current state; meaningless when n == 0 */
};

struct tui_undo *tui_undo_new(size_t cap)
{
    if (cap == 0) {
        return NULL;
    }
    struct tui_undo *u = calloc(1, sizeof(*u));
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

static void drop_from(struct tui_undo *u, size_t i)
{
    for (size_t k = i; k < u->n; k++) {
        free(u->s[k].data);
    }
    u->n = i;
}

void tui_undo_clear(struct tui_undo *u)
{
    drop_from(u, 0);
    u->cur = 0;
}

void tui_undo_free(struct tui_undo *u)
{
    if (!u) {
        return;
    }
    tui_undo_clear(u);
    free(u->s);
    free(u);
}

int tui_undo_push(struct tui_undo *u, const void *data, size_t len)
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

const void *tui_undo_current(const struct tui_undo *u, size_t *len)
{
    if (u->n == 0) {
        return NULL;
    }
    if (len) {
        *len = u->s[u->cur].len;
    }
    return u->s[u->cur].data;
}

int tui_undo_can_undo(const struct tui_undo *u)
{
    return u->n > 0 && u->cur > 0;
}

int tui_undo_can_redo(const struct tui_undo *u)
{
    return u->n > 0 && u->cur + 1 < u->n;
}

const void *tui_undo_undo(struct tui_undo *u, size_t *len)
{
    if (!tui_undo_can_undo(u)) {
        return NULL;
    }
    u->cur--;
    return tui_undo_current(u, len);
}

const void *tui_undo_redo(struct tui_undo *u, size_t *len)
{
    if (!tui_undo_can_redo(u)) {
        return NULL;
    }
    u->cur++;
    return tui_undo_current(u, len);
}

size_t tui_undo_count(const struct tui_undo *u)
{
    return u->n;
}
