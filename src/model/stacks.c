/* SPDX-License-Identifier: MIT */
/* Call stacks: frames and stacks deduplicated through a string pool of their encoded forms. */
#include "config.h"

#include "iodfg/stacks.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"
#include "iodfg/strpool.h"

struct iodfg_stacks {
    struct iodfg_strpool *fkeys, *skeys; // encoded frames / stacks: pool id = frame / stack id
    struct iodfg_frame *frames;          // frame id f is frames[f - 1]
    uint32_t nframes, frames_cap;
    uint64_t *off; // nstacks + 1
    uint32_t nstacks, off_cap;
    uint32_t *ids;
    uint64_t nids, ids_cap;
    char *enc; // scratch for a stack's encoding
    size_t enc_cap;
};

struct iodfg_stacks *iodfg_stacks_new(void)
{
    struct iodfg_stacks *st = calloc(1, sizeof(*st));
    if (!st || !(st->fkeys = iodfg_strpool_new()) || !(st->skeys = iodfg_strpool_new()) ||
        !(st->off = calloc(16, sizeof(*st->off)))) {
        iodfg_stacks_free(st);
        return NULL;
    }
    st->off_cap = 16;
    return st;
}

void iodfg_stacks_free(struct iodfg_stacks *st)
{
    if (st) {
        iodfg_strpool_free(st->fkeys);
        iodfg_strpool_free(st->skeys);
        free(st->frames);
        free(st->off);
        free(st->ids);
        free(st->enc);
        free(st);
    }
}

static int grow(void **p, uint64_t *cap, uint64_t need, size_t size)
{
    if (need <= *cap) {
        return 0;
    }
    uint64_t n = *cap ? *cap * 2 : 64;
    while (n < need) {
        n *= 2;
    }
    void *q = realloc(*p, (size_t)n * size);
    if (!q) {
        return -1;
    }
    *p = q;
    *cap = n;
    return 0;
}

/* v in lower-case hex without leading zeros, then sep, at p (17 bytes at most): the keys'
 * encoding, by hand because snprintf took a fifth of the parse of a strace -k trace. */
static size_t put_hex(char *p, uint64_t v, char sep)
{
    char tmp[16];
    size_t n = 0;
    do {
        tmp[n++] = "0123456789abcdef"[v & 15];
        v >>= 4;
    } while (v);
    for (size_t i = 0; i < n; i++) {
        p[i] = tmp[n - 1 - i];
    }
    p[n] = sep;
    return n + 1;
}

int iodfg_stacks_frame(struct iodfg_stacks *st, const struct iodfg_frame *fr, uint32_t *id)
{
    char key[96]; // "object,function,flags,offset,address": 5 * 17 bytes at most
    size_t n = put_hex(key, fr->object, ',');
    n += put_hex(key + n, fr->function, ',');
    n += put_hex(key + n, fr->flags, ',');
    n += put_hex(key + n, fr->offset, ',');
    n += put_hex(key + n, fr->address, ',') - 1; // no separator after the last
    uint32_t got;
    if (iodfg_strpool_intern(st->fkeys, key, n, &got)) {
        return -1;
    }
    if (got > st->nframes) { // new: ids come in order
        uint64_t cap = st->frames_cap;
        if (grow((void **)&st->frames, &cap, (uint64_t)st->nframes + 1, sizeof(*st->frames))) {
            return -1;
        }
        st->frames_cap = (uint32_t)cap;
        st->frames[st->nframes++] = *fr;
    }
    *id = got;
    return 0;
}

int iodfg_stacks_intern(struct iodfg_stacks *st, const uint32_t *frames, uint32_t n, uint32_t *id)
{
    if (n == 0) {
        return -1;
    }
    size_t need = (size_t)n * 9 + 1;
    if (need > st->enc_cap) {
        char *e = realloc(st->enc, need);
        if (!e) {
            return -1;
        }
        st->enc = e;
        st->enc_cap = need;
    }
    size_t len = 0;
    for (uint32_t i = 0; i < n; i++) {
        len += put_hex(st->enc + len, frames[i], ',');
    }
    uint32_t got;
    if (iodfg_strpool_intern(st->skeys, st->enc, len, &got)) {
        return -1;
    }
    if (got > st->nstacks) {
        uint64_t ocap = st->off_cap;
        if (grow((void **)&st->off, &ocap, (uint64_t)st->nstacks + 2, sizeof(*st->off)) ||
            grow((void **)&st->ids, &st->ids_cap, st->nids + n, sizeof(*st->ids))) {
            return -1;
        }
        st->off_cap = (uint32_t)ocap;
        memcpy(st->ids + st->nids, frames, (size_t)n * sizeof(*frames));
        st->nids += n;
        st->off[++st->nstacks] = st->nids;
    }
    *id = got;
    return 0;
}

uint32_t *iodfg_stacks_merge(struct iodfg_stacks *dst, const struct iodfg_stacks *src,
                             const uint32_t *smap)
{
    uint32_t *fmap = malloc(((size_t)src->nframes + 1) * sizeof(*fmap));
    uint32_t *map = malloc(((size_t)src->nstacks + 1) * sizeof(*map));
    uint32_t *ids = malloc(((size_t)src->nids + 1) * sizeof(*ids));
    int ok = fmap && map && ids;
    for (uint32_t f = 0; ok && f < src->nframes; f++) {
        struct iodfg_frame fr = src->frames[f];
        fr.object = smap[fr.object];
        fr.function = smap[fr.function];
        ok = iodfg_stacks_frame(dst, &fr, &fmap[f + 1]) == 0;
    }
    for (uint64_t i = 0; ok && i < src->nids; i++) {
        ids[i] = fmap[src->ids[i]];
    }
    if (map) {
        map[0] = 0;
    }
    for (uint32_t s = 0; ok && s < src->nstacks; s++) {
        ok = iodfg_stacks_intern(dst, ids + src->off[s], (uint32_t)(src->off[s + 1] - src->off[s]),
                                 &map[s + 1]) == 0;
    }
    free(fmap);
    free(ids);
    if (!ok) {
        free(map);
        return NULL;
    }
    return map;
}

uint32_t iodfg_stacks_frame_count(const struct iodfg_stacks *st)
{
    return st ? st->nframes : 0;
}

const struct iodfg_frame *iodfg_stacks_frames(const struct iodfg_stacks *st)
{
    return st ? st->frames : NULL;
}

uint32_t iodfg_stacks_count(const struct iodfg_stacks *st)
{
    return st ? st->nstacks : 0;
}

const uint64_t *iodfg_stacks_offsets(const struct iodfg_stacks *st)
{
    return st ? st->off : NULL;
}

const uint32_t *iodfg_stacks_ids(const struct iodfg_stacks *st)
{
    return st ? st->ids : NULL;
}

const uint32_t *iodfg_stacks_get(const struct iodfg_stacks *st, uint32_t s, uint32_t *n)
{
    if (!st || s == 0 || s > st->nstacks) {
        *n = 0;
        return NULL;
    }
    *n = (uint32_t)(st->off[s] - st->off[s - 1]);
    return st->ids + st->off[s - 1];
}

size_t iodfg_stacks_memory(const struct iodfg_stacks *st)
{
    if (!st) {
        return 0;
    }
    return sizeof(*st) + iodfg_strpool_memory(st->fkeys) + iodfg_strpool_memory(st->skeys) +
           st->frames_cap * sizeof(*st->frames) + st->off_cap * sizeof(*st->off) +
           st->ids_cap * sizeof(*st->ids) + st->enc_cap;
}

struct iodfg_stacks *iodfg_stacks_from_raw(const struct iodfg_frame *frames, uint32_t nframes,
                                           const uint64_t *off, const uint32_t *ids,
                                           uint32_t nstacks, struct iodfg_error *err)
{
    struct iodfg_stacks *st = iodfg_stacks_new();
    if (!st) {
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        return NULL;
    }
    const char *bad = NULL;
    uint32_t id;
    for (uint32_t f = 0; !bad && f < nframes; f++) {
        if (iodfg_stacks_frame(st, &frames[f], &id)) {
            bad = "";
        } else if (id != f + 1) {
            bad = "a frame repeats";
        }
    }
    for (uint32_t s = 0; !bad && s < nstacks; s++) {
        if (off[s + 1] <= off[s] || off[s + 1] - off[s] > UINT32_MAX || (s == 0 && off[0])) {
            bad = "stack offsets do not increase";
            break;
        }
        for (uint64_t i = off[s]; !bad && i < off[s + 1]; i++) {
            if (ids[i] == 0 || ids[i] > nframes) {
                bad = "a stack names a frame that does not exist";
            }
        }
        if (!bad && iodfg_stacks_intern(st, ids + off[s], (uint32_t)(off[s + 1] - off[s]), &id)) {
            bad = "";
        } else if (!bad && id != s + 1) {
            bad = "a stack repeats";
        }
    }
    if (bad) {
        if (*bad) {
            iodfg_error_set(err, IODFG_E_FORMAT, "%s", bad);
        } else {
            iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        }
        iodfg_stacks_free(st);
        return NULL;
    }
    return st;
}
