/* SPDX-License-Identifier: MIT */
/* Engine-internal: the representation of one filter, shared by filter.c and filter_apply.c. */
#ifndef IODFG_ENGINE_FILTER_PRIV_H
#define IODFG_ENGINE_FILTER_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "iodfg/filter.h"
#include "iodfg/rules.h"

#include "rules_priv.h"

struct iodfg_buf;

enum case_field { CF_CID, CF_HOST, CF_RID, CF_NAME, CF_SOURCE, CF_NONE };

struct iodfg_filter {
    enum iodfg_filter_kind kind;
    enum case_field field; /* IODFG_FILTER_CASE */
    enum iodfg_rule_op op; /* = != ~ !~ */
    char *value;           /* the value as written, trimmed */
    struct rx *rx;         /* ~ and !~ */
    char **items;          /* = and != lists (point into items_buf) */
    size_t nitems;
    char *items_buf;
    unsigned kinds;       /* IODFG_FILTER_KIND: bit per enum iodfg_path_kind */
    int has_from, has_to; /* IODFG_FILTER_TIME */
    int from_abs, to_abs; /* value is on the log's clock instead of from its start */
    int from_form, to_form; /* how it was written (enum filter_time_form) */
    int64_t from_ns, to_ns;
    uint64_t number; /* minedge, top */
};

/* Does the filter select keys (call, path, kind, fs, fstype, scope, layer)? */
static inline int filter_on_key(enum iodfg_filter_kind k)
{
    return (k >= IODFG_FILTER_CALL && k <= IODFG_FILTER_KIND) || k >= IODFG_FILTER_FS;
}

/* How a time of a window was written, so that the canonical text gives it back. */
enum filter_time_form {
    TF_START, /* "1.5", "250ms": from the log's start */
    TF_AT,    /* "@1753944587.75": the log's clock, in seconds */
    TF_REL,   /* "+1.5 s": a relative clock (strace -r) */
    TF_TOD,   /* "07:38:50.69" ("+1d 00:00:01"): the time-of-day clock */
    TF_EPOCH  /* "2025-07-31 06:49:47.75 UTC": the epoch clock */
};
/* One time of a window (blanks around it allowed) into *ns and how it was written (*form);
 * 0, or -1 on a syntax error (filter_time.c). */
int filter_time_parse(const char *s, size_t n, int64_t *ns, int *form);
/* Append a time of a window in the form it was written (fraction without trailing zeros). */
void filter_time_format(struct iodfg_buf *out, int64_t ns, int form);

/* Parse one filter; errors are reported at `line` (1-based). */
struct iodfg_filter *filter_parse_at(const char *text, size_t len, unsigned long line,
                                     struct iodfg_error *err);
/* Does the case string / key satisfy f? Counts regex runs in *evals. */
int filter_test_string(const struct iodfg_filter *f, const char *s, size_t n, struct rx_scratch *ms,
                       uint64_t *evals);

#endif
