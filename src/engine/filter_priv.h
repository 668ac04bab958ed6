/* SPDX-License-Identifier: MIT */
/* Engine-internal: the representation of one filter, shared by filter.c and filter_apply.c. */
#ifndef IODFG_ENGINE_FILTER_PRIV_H
#define IODFG_ENGINE_FILTER_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "iodfg/filter.h"
#include "iodfg/rules.h"

#include "rules_priv.h"

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
    int from_form, to_form; /* how it was written (enum filter_time_form in filter.c) */
    int64_t from_ns, to_ns;
    uint64_t number; /* minedge, top */
};

/* Does the filter select keys (call, path, kind, fs, fstype, scope, layer)? */
static inline int filter_on_key(enum iodfg_filter_kind k)
{
    return (k >= IODFG_FILTER_CALL && k <= IODFG_FILTER_KIND) || k >= IODFG_FILTER_FS;
}

/* Parse one filter; errors are reported at `line` (1-based). */
struct iodfg_filter *filter_parse_at(const char *text, size_t len, unsigned long line,
                                     struct iodfg_error *err);
/* Does the case string / key satisfy f? Counts regex runs in *evals. */
int filter_test_string(const struct iodfg_filter *f, const char *s, size_t n, struct rx_scratch *ms,
                       uint64_t *evals);

#endif
