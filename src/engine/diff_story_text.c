/* SPDX-License-Identifier: MIT */
/* The one-line text of a story row: what differs between G and R, how much per case, in which
 * cases and on which files. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/eventlog.h"
#include "iodfg/format.h"
#include "iodfg/mapping.h"
#include "iodfg/metrics.h"
#include "iodfg/rules.h"
#include "iodfg/session.h"
#include "iodfg/strpool.h"

#include "diff_story_priv.h"

#define NONE UINT32_MAX
#define TOP_FILES 3

static const char *const group_name[2] = {"G", "R"};

/* A number per case: "16", "0.25", "2603". */
static const char *num(char *buf, size_t size, double v)
{
    snprintf(buf, size, v >= 1000 ? "%.0f" : "%.3g", v);
    return buf;
}

/* A ratio: "0.78x", "13x", "240x". */
static const char *times(char *buf, size_t size, double v)
{
    snprintf(buf, size, v >= 100 ? "%.0fx" : "%.2gx", v);
    return buf;
}

static void add_dur(struct iodfg_buf *b, double ns)
{
    char t[IODFG_FORMAT_MIN];
    iodfg_buf_addf(b, "%s", iodfg_format_duration(t, sizeof(t), (int64_t)llround(ns), 0));
}

static void add_bytes(struct iodfg_buf *b, double bytes)
{
    char t[IODFG_FORMAT_MIN];
    iodfg_buf_addf(b, "%s", iodfg_format_bytes(t, sizeof(t), (int64_t)llround(bytes), 0));
}

/* The call all keys of activity a share, else the activity's name. */
static const char *call_of(const struct story_ctx *x, uint32_t a)
{
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(x->log);
    const struct iodfg_key *keys = iodfg_eventlog_keys(x->log);
    uint32_t call = UINT32_MAX;
    for (uint32_t i = x->first[a]; i < x->first[a + 1]; i++) {
        uint32_t c = keys[x->key_order[i]].call;
        if (call != UINT32_MAX && c != call) {
            return iodfg_mapping_name(x->map, a);
        }
        call = c;
    }
    return call == UINT32_MAX ? iodfg_mapping_name(x->map, a) : iodfg_strpool_get(pool, call);
}

/* " in N of M cases" or "; all in one case (NAME)" for side g of activity a, when not all. */
static void cases_note(const struct story_ctx *x, struct iodfg_buf *b, int g, uint32_t a)
{
    const struct story_side *sd = &x->side[g];
    uint32_t n = sd->act_cases[a];
    if (n == 1 && sd->cases > 1) {
        iodfg_buf_addf(b, "; %s: all in one case (%s)", group_name[g],
                       iodfg_session_case_name(x->s, sd->act_one[a]));
    } else if (n && n < sd->cases) {
        iodfg_buf_addf(b, "; %s: in %u of %llu cases", group_name[g], n,
                       (unsigned long long)sd->cases);
    }
}

struct file_count {
    uint32_t path;
    uint64_t n;
};

static int by_path(const void *pa, const void *pb)
{
    const struct file_count *a = pa, *b = pb;
    return (a->path > b->path) - (a->path < b->path);
}

static int by_count(const void *pa, const void *pb)
{
    const struct file_count *a = pa, *b = pb;
    return a->n != b->n ? (a->n < b->n ? 1 : -1) : by_path(pa, pb);
}

/* "; G opens /a/b 2 per case, /a/c 1 per case": the files of activity a with the most of side
 * g's calls (keys of one path merged). */
static void files(const struct story_ctx *x, struct iodfg_buf *b, int g, uint32_t a)
{
    const struct story_side *sd = &x->side[g];
    struct file_count *v = malloc(((size_t)(x->first[a + 1] - x->first[a]) + 1) * sizeof(*v));
    size_t n = 0;
    for (uint32_t i = x->first[a]; v && i < x->first[a + 1]; i++) {
        uint32_t k = x->key_order[i];
        size_t len;
        diff_key_place(x->log, k, &len);
        if (len && sd->ks[k].count) { // a file, with some of this side's events
            v[n++] = (struct file_count){iodfg_eventlog_keys(x->log)[k].path, sd->ks[k].count};
        }
    }
    qsort(v, n, sizeof(*v), by_path);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (m && v[m - 1].path == v[i].path) {
            v[m - 1].n += v[i].n;
        } else {
            v[m++] = v[i];
        }
    }
    qsort(v, m, sizeof(*v), by_count);
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(x->log);
    for (size_t i = 0; i < m && i < TOP_FILES; i++) {
        char t[32];
        iodfg_buf_addf(b, i ? ", " : "; %s %s ", group_name[g],
                       x->shape[a].family == IODFG_IO_OPEN ? "opens" : "on");
        iodfg_buf_addf(b, "%s %s per case", iodfg_strpool_get(pool, v[i].path),
                       num(t, sizeof(t), (double)v[i].n / (double)sd->cases));
    }
    if (m > TOP_FILES) {
        iodfg_buf_addf(b, " (%zu files in all)", m);
    }
    free(v);
}

static void time_part(struct iodfg_buf *b, const struct iodfg_diff_story_row *r)
{
    char v[32];
    iodfg_buf_addf(b, "; time per case ");
    add_dur(b, r->g[IODFG_STORY_TIME]);
    iodfg_buf_addf(b, " in G against ");
    add_dur(b, r->r[IODFG_STORY_TIME]);
    if (r->g[IODFG_STORY_TIME] > 0 && r->r[IODFG_STORY_TIME] > 0) {
        iodfg_buf_addf(b, " in R (%s)", times(v, sizeof(v), r->ratio[IODFG_STORY_TIME]));
    } else {
        iodfg_buf_addf(b, " in R");
    }
}

static void bytes_part(struct iodfg_buf *b, const struct iodfg_diff_story_row *r)
{
    double g = r->g[IODFG_STORY_BYTES], rr = r->r[IODFG_STORY_BYTES];
    if (g <= 0 && rr <= 0) {
        return;
    }
    iodfg_buf_addf(b, "; ");
    add_bytes(b, g);
    if (fabs(g - rr) > 0.5) {
        iodfg_buf_addf(b, " against ");
        add_bytes(b, rr);
        iodfg_buf_addf(b, " per case");
    } else {
        iodfg_buf_addf(b, " per case on each side");
    }
}

/* "16 write" or "16 lseek + write" (every one after a seek) or "16 write (4 after an lseek)". */
static void calls_part(const struct story_ctx *x, struct iodfg_buf *b, int g, uint32_t a,
                       double per_case)
{
    const struct story_side *sd = &x->side[g];
    char v[32];
    const char *call = call_of(x, a);
    uint64_t seeked = sd->seeked[a], n = sd->as[a].count;
    if (seeked && seeked == n) {
        iodfg_buf_addf(b, "%s lseek + %s", num(v, sizeof(v), per_case), call);
    } else {
        iodfg_buf_addf(b, "%s %s", num(v, sizeof(v), per_case), call);
        if (seeked) {
            iodfg_buf_addf(b, " (%s after an lseek)",
                           num(v, sizeof(v), (double)seeked / (double)sd->cases));
        }
    }
}

static void variant_text(const struct story_ctx *x, const struct iodfg_diff_story_row *r,
                         struct iodfg_buf *b)
{
    size_t len;
    const char *place = diff_key_place(x->log, x->shape[r->g_act].place, &len);
    iodfg_buf_addf(b, "%s in G is %s in R, on %.*s: ", call_of(x, r->g_act), call_of(x, r->r_act),
                   (int)len, place);
    calls_part(x, b, 0, r->g_act, r->g[IODFG_STORY_COUNT]);
    iodfg_buf_addf(b, " per case against ");
    calls_part(x, b, 1, r->r_act, r->r[IODFG_STORY_COUNT]);
    bytes_part(b, r);
    time_part(b, r);
    cases_note(x, b, 0, r->g_act);
    cases_note(x, b, 1, r->r_act);
    files(x, b, 0, r->g_act);
    files(x, b, 1, r->r_act);
}

/* "call" or "calls" (and "open"/"opens") for a number per case. */
static const char *noun(double v, int opens)
{
    return v == 1 ? (opens ? "open" : "call") : (opens ? "opens" : "calls");
}

static void activity_text(const struct story_ctx *x, const struct iodfg_diff_story_row *r,
                          struct iodfg_buf *b)
{
    char v[3][32];
    uint32_t a = r->g_act;
    const char *name = iodfg_mapping_name(x->map, a);
    int opens = x->shape[a].family == IODFG_IO_OPEN;
    if (r->side == IODFG_DIFF_CHANGED) {
        iodfg_buf_addf(b, "%s: %s %s per case in G, %s in R", name,
                       num(v[0], sizeof(v[0]), r->g[IODFG_STORY_COUNT]),
                       noun(r->g[IODFG_STORY_COUNT], opens),
                       num(v[1], sizeof(v[1]), r->r[IODFG_STORY_COUNT]));
        if (fabs(r->ratio[IODFG_STORY_COUNT] - 1) > 1e-9) {
            iodfg_buf_addf(b, " (%s)", times(v[2], sizeof(v[2]), r->ratio[IODFG_STORY_COUNT]));
        }
        bytes_part(b, r);
        time_part(b, r);
    } else {
        int g = r->side == IODFG_DIFF_R_ONLY;
        const double *n = g ? r->r : r->g;
        iodfg_buf_addf(b, "%s only in %s: %s %s per case", name, group_name[g],
                       num(v[0], sizeof(v[0]), n[IODFG_STORY_COUNT]),
                       noun(n[IODFG_STORY_COUNT], opens));
        if (n[IODFG_STORY_BYTES] > 0) {
            iodfg_buf_addf(b, ", ");
            add_bytes(b, n[IODFG_STORY_BYTES]);
        }
        iodfg_buf_addf(b, ", ");
        add_dur(b, n[IODFG_STORY_TIME]);
        iodfg_buf_addf(b, " per case");
    }
    for (int g = 0; g < 2; g++) {
        cases_note(x, b, g, a);
    }
    for (int g = 0; g < 2; g++) {
        files(x, b, g, a);
    }
}

void story_text(const struct story_ctx *x, struct iodfg_diff_story_row *r)
{
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    if (r->kind == IODFG_STORY_VARIANT) {
        variant_text(x, r, &b);
    } else {
        activity_text(x, r, &b);
    }
    snprintf(r->text, sizeof(r->text), "%s", b.data ? b.data : "");
    iodfg_buf_fini(&b);
}
