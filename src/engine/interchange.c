/* SPDX-License-Identifier: MIT */
/* Interchange exports: the walk over the selected traces that every format shares, times as
 * text, and the streaming of the output through the caller's flush callback. */
#include "config.h"

#include "iodfg/interchange.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/dfg.h"
#include "iodfg/error.h"
#include "iodfg/mapping.h"
#include "iodfg/sanitize.h"
#include "iodfg/strpool.h"
#include "iodfg/trace.h"

#include "interchange_priv.h"

#define FLUSH_BYTES (1u << 20)

static const char *const format_names[] = {"perfetto", "csv", "xes"};

const char *iodfg_interchange_format_name(enum iodfg_interchange_format f)
{
    return (unsigned)f < 3 ? format_names[f] : "";
}

int iodfg_interchange_format_parse(const char *name, enum iodfg_interchange_format *f)
{
    for (unsigned i = 0; i < 3; i++) {
        if (strcmp(name, format_names[i]) == 0) {
            *f = (enum iodfg_interchange_format)i;
            return 0;
        }
    }
    return -1;
}

/* ---- times ------------------------------------------------------------------ */

static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

// Proleptic Gregorian date of a day count since 1970-01-01 (Hinnant's civil_from_days).
static void civil_from_days(int64_t z, long long *y, unsigned *m, unsigned *d)
{
    z += 719468;
    int64_t era = floor_div(z, 146097);
    unsigned doe = (unsigned)(z - era * 146097);
    unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    unsigned mp = (5 * doy + 2) / 153;
    *d = doy - (153 * mp + 2) / 5 + 1;
    *m = mp < 10 ? mp + 3 : mp - 9;
    *y = (long long)yoe + era * 400 + (*m <= 2);
}

int iodfg_interchange_iso_time(struct iodfg_buf *b, int64_t ns, int digits)
{
    const int64_t day = 86400LL * 1000000000LL;
    int64_t days = floor_div(ns, day);
    int64_t in_day = ns - days * day; // 0 <= in_day < day
    long long y;
    unsigned m, d;
    civil_from_days(days, &y, &m, &d);
    int64_t secs = in_day / 1000000000LL, frac = in_day % 1000000000LL;
    if (digits == 6) {
        frac /= 1000;
    }
    return iodfg_buf_addf(b, "%04lld-%02u-%02uT%02d:%02d:%02d.%0*lld+00:00", y, m, d,
                          (int)(secs / 3600), (int)(secs / 60 % 60), (int)(secs % 60), digits,
                          (long long)frac);
}

int iodfg_interchange_seconds(struct iodfg_buf *b, int64_t ns, int digits)
{
    // magnitude as unsigned: INT64_MIN has no positive int64
    uint64_t mag = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
    uint64_t frac = mag % 1000000000u;
    if (digits == 6) {
        frac /= 1000;
    }
    return iodfg_buf_addf(b, "%s%llu.%0*llu", ns < 0 ? "-" : "",
                          (unsigned long long)(mag / 1000000000u), digits,
                          (unsigned long long)frac);
}

/* ---- helpers for the formats -------------------------------------------------- */

const char *xchg_str(const struct xchg *x, uint32_t id)
{
    return iodfg_strpool_get(x->pool, id);
}

const char *xchg_activity(const struct xchg *x, uint32_t a)
{
    const struct iodfg_mapping *map = x->src->map;
    return a < map->nactivities ? iodfg_strpool_get(map->names, map->name_of[a]) : "";
}

const char *xchg_trace_name(struct xchg *x)
{
    const char *name = xchg_str(x, iodfg_eventlog_case(x->src->log, x->c)->name);
    iodfg_buf_clear(&x->scratch);
    if (x->per_pid) {
        iodfg_buf_addf(&x->scratch, "%s/%d", name, (int)x->pid);
    } else {
        iodfg_buf_add(&x->scratch, name, strlen(name));
    }
    return x->scratch.data ? x->scratch.data : "";
}

const char *xchg_group(const struct xchg *x, uint32_t c)
{
    if (x->src->g_mask && x->src->g_mask[c]) {
        return "G";
    }
    return x->src->r_mask && x->src->r_mask[c] ? "R" : "";
}

const char *xchg_clock_note(const struct xchg *x)
{
    uint32_t other = 0;
    for (int k = 0; k < IODFG_CLOCK__N; k++) {
        other += k == IODFG_CLOCK_EPOCH ? 0 : x->clocks[k];
    }
    if (!other) {
        return "";
    }
    return "Some cases were not recorded on the wall clock (their case clock says which: "
           "time-of-day = strace -t/-tt, the date unknown; relative = strace -r or OTF2, from "
           "the first event; none = no timestamps, file order kept): their times are written "
           "as offsets from 1970-01-01T00:00:00 UTC and are not dates. Times of cases on "
           "different clocks cannot be compared.";
}

const char *xchg_escaped(struct xchg *x, const char *s)
{
    iodfg_buf_clear(&x->esc);
    iodfg_sanitize_tsv(&x->esc, s, strlen(s));
    iodfg_buf_add(&x->esc, "", 0);
    return x->esc.data ? x->esc.data : "";
}

void xchg_add(struct xchg *x, const char *s)
{
    iodfg_buf_add(&x->out, s, strlen(s));
}

/* ---- the walk ----------------------------------------------------------------- */

struct walk {
    struct xchg *x;
    const struct xchg_ops *ops;
    iodfg_interchange_flush_fn flush;
    void *ctx;
    struct iodfg_error *err;
};

static int flush_out(struct walk *w, size_t at_least)
{
    struct xchg *x = w->x;
    if (x->out.failed || x->scratch.failed || x->esc.failed) {
        return iodfg_error_set(w->err, IODFG_E_NOMEM, "out of memory writing the export");
    }
    if (x->out.len < at_least) {
        return 0;
    }
    int rc = x->out.len ? w->flush(w->ctx, x->out.data, x->out.len, w->err) : 0;
    iodfg_buf_clear(&x->out);
    return rc ? iodfg_error_set(w->err, IODFG_E_IO, "cannot write the export") : 0;
}

static int on_transition(void *ctx, uint32_t from, uint32_t to, int has_gap, int64_t gap_ns,
                         uint32_t trace, uint64_t ev)
{
    (void)has_gap;
    (void)gap_ns;
    (void)trace;
    struct walk *w = ctx;
    struct xchg *x = w->x;
    if (from == IODFG_NODE_START) {
        x->pid = x->col->pid ? x->col->pid[ev] : 0;
        x->first_ev = ev;
        x->tot->traces++;
        if (w->ops->trace_begin && w->ops->trace_begin(x)) {
            return -1;
        }
    }
    if (to == IODFG_NODE_END) {
        return (w->ops->trace_end && w->ops->trace_end(x)) || flush_out(w, FLUSH_BYTES) ? -1 : 0;
    }
    x->tot->events++;
    return w->ops->event(x, ev, to) || flush_out(w, FLUSH_BYTES) ? -1 : 0;
}

// Microseconds unless some selected time has nanoseconds; counts the cases by clock.
static void survey(struct xchg *x)
{
    const struct iodfg_eventlog *log = x->src->log;
    const struct iodfg_columns *col = x->col;
    x->digits = 6;
    for (uint32_t c = 0; c < iodfg_eventlog_case_count(log); c++) {
        uint64_t lo, hi;
        if (!iodfg_trace_case_range(log, x->src->sel, c, &lo, &hi)) {
            continue;
        }
        x->clocks[iodfg_eventlog_case(log, c)->clock]++;
        for (uint64_t e = lo; e < hi && x->digits == 6; e++) {
            int64_t d = col->dur_ns ? col->dur_ns[e] : IODFG_UNKNOWN;
            if (col->start_ns[e] % 1000 || (d != IODFG_UNKNOWN && d % 1000)) {
                x->digits = 9;
            }
        }
    }
}

static const struct xchg_ops *ops_of(enum iodfg_interchange_format f)
{
    switch (f) {
    case IODFG_XCHG_PERFETTO:
        return &xchg_perfetto_ops;
    case IODFG_XCHG_CSV:
        return &xchg_csv_ops;
    case IODFG_XCHG_XES:
        return &xchg_xes_ops;
    }
    return NULL;
}

static int walk_cases(struct walk *w)
{
    struct xchg *x = w->x;
    const struct iodfg_eventlog *log = x->src->log;
    for (uint32_t c = 0; c < iodfg_eventlog_case_count(log); c++) {
        uint64_t lo, hi;
        if (!iodfg_trace_case_range(log, x->src->sel, c, &lo, &hi)) {
            continue;
        }
        x->c = c;
        long n = iodfg_trace_walk_case(log, x->src->map->activity_of_key, lo, hi, x->per_pid,
                                       on_transition, w, w->err);
        if (n < 0) {
            return -1;
        }
        x->tot->cases += n > 0;
    }
    return 0;
}

int iodfg_interchange_write(enum iodfg_interchange_format f,
                            const struct iodfg_interchange_source *src,
                            iodfg_interchange_flush_fn flush, void *ctx,
                            struct iodfg_interchange_totals *totals, struct iodfg_error *err)
{
    const struct xchg_ops *ops = ops_of(f);
    const struct iodfg_columns *col = iodfg_eventlog_columns(src->log);
    if (!ops || !col->start_ns || !col->key) {
        return iodfg_error_set(err, IODFG_E_ARG, "export needs the start and key columns");
    }
    struct iodfg_interchange_totals tot_local;
    struct iodfg_interchange_totals *tot = totals ? totals : &tot_local;
    memset(tot, 0, sizeof(*tot));
    struct xchg x;
    memset(&x, 0, sizeof(x));
    x.src = src;
    x.col = col;
    x.pool = iodfg_eventlog_pool(src->log);
    x.keys = iodfg_eventlog_keys(src->log);
    x.tot = tot;
    // Perfetto draws a thread per pid: walk each pid's calls together even per file
    x.per_pid = (src->sel->per_pid || f == IODFG_XCHG_PERFETTO) && col->pid;
    iodfg_buf_init(&x.out);
    iodfg_buf_init(&x.scratch);
    iodfg_buf_init(&x.esc);
    survey(&x);
    memcpy(tot->clocks, x.clocks, sizeof(tot->clocks));
    tot->sub_us = x.digits == 9;
    struct walk w = {&x, ops, flush, ctx, err};
    int rc = -1;
    if (ops->begin(&x) == 0 && flush_out(&w, FLUSH_BYTES) == 0 && walk_cases(&w) == 0 &&
        (!ops->end || ops->end(&x) == 0) && flush_out(&w, 0) == 0) {
        rc = 0;
    } else if (!err || err->code == IODFG_OK) {
        rc = iodfg_error_set(err, IODFG_E_NOMEM, "out of memory writing the export");
    }
    if (rc == 0 && (x.out.failed || x.scratch.failed || x.esc.failed)) {
        rc = iodfg_error_set(err, IODFG_E_NOMEM, "out of memory writing the export");
    }
    iodfg_buf_fini(&x.out);
    iodfg_buf_fini(&x.scratch);
    iodfg_buf_fini(&x.esc);
    free(x.lane_end);
    free(x.lane_tid);
    return rc;
}
