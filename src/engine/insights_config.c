/* SPDX-License-Identifier: MIT */
/* Insights thresholds (defaults, NAME=VALUE, thresholds files). */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/insights.h"

struct threshold_info {
    const char *name;
    size_t offset;
    double def, lo, hi;
};

static const struct threshold_info thresholds[] = {
#define IODFG_X_THRESHOLD(field, name, def, lo, hi)                                                \
    {name, offsetof(struct iodfg_insight_thresholds, field), def, lo, hi},
    IODFG_INSIGHT_THRESHOLD_LIST(IODFG_X_THRESHOLD)
#undef IODFG_X_THRESHOLD
};
#define NTHRESHOLDS (sizeof(thresholds) / sizeof(thresholds[0]))

static double *field_of(struct iodfg_insight_thresholds *t, size_t i)
{
    return (double *)((char *)t + thresholds[i].offset);
}

void iodfg_insight_thresholds_default(struct iodfg_insight_thresholds *t)
{
    for (size_t i = 0; i < NTHRESHOLDS; i++) {
        *field_of(t, i) = thresholds[i].def;
    }
}

// Set NAME=VALUE from s[0..len); col0 is the column of s[0] in its line (for errors).
static int set_span(struct iodfg_insight_thresholds *t, const char *s, size_t len,
                    unsigned long col0, struct iodfg_error *err)
{
    size_t i = 0;
    while (i < len && isblank((unsigned char)s[i])) {
        i++;
    }
    size_t name0 = i;
    while (i < len && s[i] != '=' && !isblank((unsigned char)s[i])) {
        i++;
    }
    size_t name_len = i - name0;
    while (i < len && isblank((unsigned char)s[i])) {
        i++;
    }
    if (i >= len || s[i] != '=' || name_len == 0) {
        iodfg_error_set(err, IODFG_E_PARSE, "expected NAME=VALUE (a threshold and its value)");
        iodfg_error_at(err, NULL, 0, col0 + i);
        return -1;
    }
    size_t k = 0;
    while (k < NTHRESHOLDS && (strlen(thresholds[k].name) != name_len ||
                               memcmp(thresholds[k].name, s + name0, name_len) != 0)) {
        k++;
    }
    if (k == NTHRESHOLDS) {
        iodfg_error_set(err, IODFG_E_PARSE, "unknown threshold '%.*s' (doc/insights.md lists them)",
                        (int)(name_len > 60 ? 60 : name_len), s + name0);
        iodfg_error_at(err, NULL, 0, col0 + name0);
        return -1;
    }
    i++;
    while (i < len && isblank((unsigned char)s[i])) {
        i++;
    }
    size_t v0 = i, vend = len;
    while (vend > v0 && isblank((unsigned char)s[vend - 1])) {
        vend--;
    }
    char num[64];
    char *end = NULL;
    double v = NAN;
    if (vend > v0 && vend - v0 < sizeof(num)) {
        memcpy(num, s + v0, vend - v0);
        num[vend - v0] = '\0';
        errno = 0;
        v = strtod(num, &end);
    }
    if (!end || *end || errno || !isfinite(v) || v < thresholds[k].lo || v > thresholds[k].hi) {
        iodfg_error_set(err, IODFG_E_PARSE, "%s takes a number from %g to %g", thresholds[k].name,
                        thresholds[k].lo, thresholds[k].hi);
        iodfg_error_at(err, NULL, 0, col0 + v0);
        return -1;
    }
    *field_of(t, k) = v;
    return 0;
}

int iodfg_insight_threshold_set(struct iodfg_insight_thresholds *t, const char *assignment,
                                struct iodfg_error *err)
{
    return set_span(t, assignment, strlen(assignment), 1, err);
}

int iodfg_insight_thresholds_parse(struct iodfg_insight_thresholds *t, const char *text, size_t len,
                                   const char *where, struct iodfg_error *err)
{
    struct iodfg_insight_thresholds next = *t;
    unsigned long line = 0;
    for (size_t p = 0; p < len;) {
        const char *nl = memchr(text + p, '\n', len - p);
        size_t end = nl ? (size_t)(nl - text) : len, stop = end;
        line++;
        const char *hash = memchr(text + p, '#', end - p);
        stop = hash ? (size_t)(hash - text) : end;
        size_t q = p;
        while (q < stop && isspace((unsigned char)text[q])) {
            q++;
        }
        if (q < stop && set_span(&next, text + p, stop - p, 1, err)) {
            iodfg_error_at(err, where, line, err ? err->col : 0);
            return -1;
        }
        p = end + 1;
    }
    *t = next;
    return 0;
}

int iodfg_insight_thresholds_format(const struct iodfg_insight_thresholds *t, struct iodfg_buf *out)
{
    for (size_t i = 0; i < NTHRESHOLDS; i++) {
        const double *v = (const double *)((const char *)t + thresholds[i].offset);
        if (iodfg_buf_addf(out, "%s = %.15g\n", thresholds[i].name, *v) < 0) {
            return -1;
        }
    }
    return 0;
}
