/* SPDX-License-Identifier: MIT */
/* Filters: one-line text form (parse and canonical format) and the filter stack. */
#include "config.h"

#include "iodfg/filter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"

#include "filter_priv.h"

struct iodfg_filter_stack {
    struct iodfg_filter **f;
    size_t n, cap;
    uint64_t generation; /* bumped by every push and pop */
};

static const struct {
    const char *name;
    enum iodfg_filter_kind kind;
    enum case_field field;
} FIELDS[] = {
    {"cid", IODFG_FILTER_CASE, CF_CID},       {"host", IODFG_FILTER_CASE, CF_HOST},
    {"rid", IODFG_FILTER_CASE, CF_RID},       {"name", IODFG_FILTER_CASE, CF_NAME},
    {"source", IODFG_FILTER_CASE, CF_SOURCE}, {"call", IODFG_FILTER_CALL, CF_NONE},
    {"path", IODFG_FILTER_PATH, CF_NONE},     {"kind", IODFG_FILTER_KIND, CF_NONE},
    {"time", IODFG_FILTER_TIME, CF_NONE},     {"minedge", IODFG_FILTER_MIN_EDGE, CF_NONE},
    {"top", IODFG_FILTER_TOP, CF_NONE},       {"fs", IODFG_FILTER_FS, CF_NONE},
    {"fstype", IODFG_FILTER_FSTYPE, CF_NONE}, {"scope", IODFG_FILTER_SCOPE, CF_NONE},
    {"layer", IODFG_FILTER_LAYER, CF_NONE},   {"site", IODFG_FILTER_SITE, CF_NONE},
};
#define NFIELDS (sizeof(FIELDS) / sizeof(FIELDS[0]))

static const char *const OPS[] = {"~", "!~", "=", "!="}; // index = enum iodfg_rule_op

void iodfg_filter_free(struct iodfg_filter *f)
{
    if (f) {
        rx_free(f->rx);
        free(f->items);
        free(f->items_buf);
        free(f->value);
        free(f);
    }
}

static struct iodfg_filter *ffail(struct iodfg_filter *f, struct iodfg_error *err,
                                  enum iodfg_status code, unsigned long line, size_t col,
                                  const char *msg)
{
    iodfg_error_set(err, code, "%s", msg);
    iodfg_error_at(err, NULL, line, col + 1);
    iodfg_filter_free(f);
    return NULL;
}

/* The value of a time window: FROM..TO in seconds (either may be left out). */
static struct iodfg_filter *parse_window(struct iodfg_filter *f, const char *v, size_t vn,
                                         size_t vcol, unsigned long line, struct iodfg_error *err)
{
    const char *dots = NULL;
    for (size_t i = 0; i + 1 < vn && !dots; i++) {
        dots = v[i] == '.' && v[i + 1] == '.' ? v + i : NULL;
    }
    if (!dots) {
        return ffail(f, err, IODFG_E_PARSE, line, vcol, "expected FROM..TO (seconds)");
    }
    size_t ln = (size_t)(dots - v), rn = vn - ln - 2;
    f->has_from = ln > 0;
    f->has_to = rn > 0;
    if (f->has_from && filter_time_parse(v, ln, &f->from_ns, &f->from_form) < 0) {
        return ffail(f, err, IODFG_E_PARSE, line, vcol,
                     "bad start time (e.g. 1.5, 250ms, 07:38:50.69, @T)");
    }
    if (f->has_to && filter_time_parse(dots + 2, rn, &f->to_ns, &f->to_form) < 0) {
        return ffail(f, err, IODFG_E_PARSE, line, vcol + ln + 2, "bad end time");
    }
    f->from_abs = f->has_from && f->from_form != TF_START;
    f->to_abs = f->has_to && f->to_form != TF_START;
    if (!f->has_from && !f->has_to) {
        return ffail(f, err, IODFG_E_PARSE, line, vcol, "empty time window");
    }
    if (f->has_from && f->has_to && f->from_abs == f->to_abs && f->from_ns > f->to_ns) {
        return ffail(f, err, IODFG_E_PARSE, line, vcol, "the window ends before it starts");
    }
    return f;
}

/* The index in [first, last] whose name (name_of) is item; -1 when none is. */
static int item_index(const char *item, const char *(*name_of)(int), int first, int last)
{
    for (int i = first; i <= last; i++) {
        if (strcmp(name_of(i), item) == 0) {
            return i;
        }
    }
    return -1;
}

static const char *kind_name(int k)
{
    return iodfg_path_kind_name((enum iodfg_path_kind)k);
}

static const char *scope_name(int s)
{
    return iodfg_scope_name((enum iodfg_scope)s);
}

/* One item of an = or != list, at column col: kinds and scopes must be known names. */
static struct iodfg_filter *check_item(struct iodfg_filter *f, const char *item, size_t col,
                                       unsigned long line, struct iodfg_error *err)
{
    if (f->kind == IODFG_FILTER_KIND) {
        int k = item_index(item, kind_name, IODFG_PATH_NONE, IODFG_PATH_OTHER);
        if (k < 0) {
            return ffail(f, err, IODFG_E_PARSE, line, col,
                         "unknown kind (expected file, socket, pipe, anon, other or none)");
        }
        f->kinds |= 1u << k;
    }
    if (f->kind == IODFG_FILTER_SCOPE &&
        item_index(item, scope_name, IODFG_SCOPE_NONE, IODFG_SCOPE__N - 1) < 0) {
        return ffail(f, err, IODFG_E_PARSE, line, col,
                     "unknown scope (expected local, global, virtual, unknown or none)");
    }
    return f;
}

/* The value of = and !=: a comma list, except for paths (one exact path, commas allowed). */
static struct iodfg_filter *parse_items(struct iodfg_filter *f, const char *v, size_t vn,
                                        size_t vcol, unsigned long line, struct iodfg_error *err)
{
    f->items_buf = malloc(vn + 1);
    f->items = calloc(vn + 1, sizeof(*f->items));
    if (!f->items_buf || !f->items) {
        return ffail(f, err, IODFG_E_NOMEM, line, vcol, "out of memory");
    }
    memcpy(f->items_buf, v, vn);
    f->items_buf[vn] = '\0';
    size_t start = 0;
    for (size_t i = 0; i <= vn; i++) {
        if (i < vn && (f->kind == IODFG_FILTER_PATH || v[i] != ',')) {
            continue;
        }
        size_t b = start, e = i;
        while (f->kind != IODFG_FILTER_PATH && b < e && (v[b] == ' ' || v[b] == '\t')) {
            b++;
        }
        while (f->kind != IODFG_FILTER_PATH && e > b && (v[e - 1] == ' ' || v[e - 1] == '\t')) {
            e--;
        }
        if (e == b) {
            return ffail(f, err, IODFG_E_PARSE, line, vcol + i, "empty item in list");
        }
        f->items_buf[e] = '\0';
        f->items[f->nitems++] = f->items_buf + b;
        if (!check_item(f, f->items_buf + b, vcol + b, line, err)) {
            return NULL;
        }
        start = i + 1;
    }
    return f;
}

static struct iodfg_filter *parse_value(struct iodfg_filter *f, const char *v, size_t vn,
                                        size_t vcol, unsigned long line, struct iodfg_error *err)
{
    if (f->kind == IODFG_FILTER_TIME) {
        return parse_window(f, v, vn, vcol, line, err);
    }
    if (f->kind == IODFG_FILTER_MIN_EDGE || f->kind == IODFG_FILTER_TOP) {
        for (size_t i = 0; i < vn; i++) {
            if (v[i] < '0' || v[i] > '9' || f->number > UINT32_MAX) {
                return ffail(f, err, IODFG_E_PARSE, line, vcol + i, "expected a whole number");
            }
            f->number = f->number * 10 + (uint64_t)(v[i] - '0');
        }
        return f;
    }
    if (f->op == IODFG_OP_MATCH || f->op == IODFG_OP_NOMATCH) {
        size_t off;
        int nomem;
        char msg[200];
        f->rx = rx_compile(v, vn, &off, msg, sizeof(msg), &nomem);
        if (!f->rx) {
            char m2[240];
            snprintf(m2, sizeof(m2), "invalid regex: %s", nomem ? "out of memory" : msg);
            return ffail(f, err, nomem ? IODFG_E_NOMEM : IODFG_E_REGEX, line, vcol + off, m2);
        }
        return f;
    }
    return parse_items(f, v, vn, vcol, line, err);
}

struct iodfg_filter *filter_parse_at(const char *text, size_t len, unsigned long line,
                                     struct iodfg_error *err)
{
    size_t i = 0;
    while (i < len && (text[i] == ' ' || text[i] == '\t')) {
        i++;
    }
    while (len > i && (text[len - 1] == ' ' || text[len - 1] == '\t' || text[len - 1] == '\r')) {
        len--;
    }
    size_t fs = i;
    while (i < len && text[i] >= 'a' && text[i] <= 'z') {
        i++;
    }
    struct iodfg_filter *f = calloc(1, sizeof(*f));
    if (!f) {
        return ffail(NULL, err, IODFG_E_NOMEM, line, fs, "out of memory");
    }
    size_t k = 0;
    while (k < NFIELDS &&
           !(strlen(FIELDS[k].name) == i - fs && memcmp(FIELDS[k].name, text + fs, i - fs) == 0)) {
        k++;
    }
    if (k == NFIELDS) {
        return ffail(f, err, IODFG_E_PARSE, line, fs,
                     "unknown filter (expected cid, host, rid, name, source, call, path, kind, "
                     "fs, fstype, scope, layer, time, minedge or top)");
    }
    f->kind = FIELDS[k].kind;
    f->field = FIELDS[k].field;
    while (i < len && (text[i] == ' ' || text[i] == '\t')) {
        i++;
    }
    size_t opat = i;
    if (i + 1 < len && text[i] == '!' && (text[i + 1] == '~' || text[i + 1] == '=')) {
        f->op = text[i + 1] == '~' ? IODFG_OP_NOMATCH : IODFG_OP_NOTIN, i += 2;
    } else if (i < len && (text[i] == '~' || text[i] == '=')) {
        f->op = text[i] == '~' ? IODFG_OP_MATCH : IODFG_OP_IN, i += 1;
    } else {
        return ffail(f, err, IODFG_E_PARSE, line, opat, "expected `=`, `!=`, `~` or `!~`");
    }
    int regex_ok = f->kind <= IODFG_FILTER_PATH || f->kind >= IODFG_FILTER_FS;
    if ((!regex_ok && f->op != IODFG_OP_IN && f->kind != IODFG_FILTER_KIND) ||
        (f->kind == IODFG_FILTER_KIND && (f->op == IODFG_OP_MATCH || f->op == IODFG_OP_NOMATCH))) {
        return ffail(f, err, IODFG_E_PARSE, line, opat,
                     f->kind == IODFG_FILTER_KIND ? "kind takes `=` or `!=`" : "expected `=`");
    }
    while (i < len && (text[i] == ' ' || text[i] == '\t')) {
        i++;
    }
    if (i >= len) {
        return ffail(f, err, IODFG_E_PARSE, line, i, "expected a value");
    }
    f->value = malloc(len - i + 1);
    if (!f->value) {
        return ffail(f, err, IODFG_E_NOMEM, line, i, "out of memory");
    }
    memcpy(f->value, text + i, len - i);
    f->value[len - i] = '\0';
    if (memchr(f->value, '\0', len - i) || memchr(f->value, '\n', len - i)) {
        return ffail(f, err, IODFG_E_PARSE, line, i, "a filter is one line of text");
    }
    return parse_value(f, f->value, len - i, i, line, err);
}

struct iodfg_filter *iodfg_filter_parse(const char *text, size_t len, struct iodfg_error *err)
{
    return filter_parse_at(text, len, 1, err);
}

enum iodfg_filter_kind iodfg_filter_kind(const struct iodfg_filter *f)
{
    return f->kind;
}

int iodfg_filter_format(const struct iodfg_filter *f, struct iodfg_buf *out)
{
    const char *name = "?";
    for (size_t k = 0; k < NFIELDS; k++) {
        if (FIELDS[k].kind == f->kind && FIELDS[k].field == f->field) {
            name = FIELDS[k].name;
        }
    }
    iodfg_buf_addf(out, "%s%s", name, OPS[f->op]);
    if (f->kind == IODFG_FILTER_TIME) {
        if (f->has_from) {
            filter_time_format(out, f->from_ns, f->from_form);
        }
        iodfg_buf_add(out, "..", 2);
        if (f->has_to) {
            filter_time_format(out, f->to_ns, f->to_form);
        }
    } else if (f->kind == IODFG_FILTER_MIN_EDGE || f->kind == IODFG_FILTER_TOP) {
        iodfg_buf_addf(out, "%llu", (unsigned long long)f->number);
    } else if (f->rx) {
        iodfg_buf_addf(out, "%s", f->value);
    } else {
        for (size_t i = 0; i < f->nitems; i++) {
            iodfg_buf_addf(out, "%s%s", i ? "," : "", f->items[i]);
        }
    }
    return out->failed ? -1 : 0;
}

/* ---- the stack ---- */

struct iodfg_filter_stack *iodfg_filter_stack_new(void)
{
    return calloc(1, sizeof(struct iodfg_filter_stack));
}

void iodfg_filter_stack_clear(struct iodfg_filter_stack *fs)
{
    while (iodfg_filter_stack_pop(fs) == 0) {
    }
}

void iodfg_filter_stack_free(struct iodfg_filter_stack *fs)
{
    if (fs) {
        iodfg_filter_stack_clear(fs);
        free(fs->f);
        free(fs);
    }
}

int iodfg_filter_stack_push(struct iodfg_filter_stack *fs, struct iodfg_filter *f_take,
                            struct iodfg_error *err)
{
    if (fs->n == fs->cap) {
        size_t cap = fs->cap ? 2 * fs->cap : 8;
        struct iodfg_filter **p = realloc(fs->f, cap * sizeof(*p));
        if (!p) {
            iodfg_filter_free(f_take);
            return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        }
        fs->f = p;
        fs->cap = cap;
    }
    fs->f[fs->n++] = f_take;
    fs->generation++;
    return 0;
}

int iodfg_filter_stack_push_text(struct iodfg_filter_stack *fs, const char *text,
                                 struct iodfg_error *err)
{
    struct iodfg_filter *f = iodfg_filter_parse(text, strlen(text), err);
    return f ? iodfg_filter_stack_push(fs, f, err) : -1;
}

int iodfg_filter_stack_pop(struct iodfg_filter_stack *fs)
{
    if (fs->n == 0) {
        return -1;
    }
    iodfg_filter_free(fs->f[--fs->n]);
    fs->generation++;
    return 0;
}

uint64_t iodfg_filter_stack_generation(const struct iodfg_filter_stack *fs)
{
    return fs->generation;
}

size_t iodfg_filter_stack_count(const struct iodfg_filter_stack *fs)
{
    return fs->n;
}

const struct iodfg_filter *iodfg_filter_stack_get(const struct iodfg_filter_stack *fs, size_t i)
{
    return i < fs->n ? fs->f[i] : NULL;
}

int iodfg_filter_stack_parse(struct iodfg_filter_stack *fs, const char *text, size_t len,
                             const char *where, struct iodfg_error *err)
{
    size_t before = fs->n, start = 0;
    for (unsigned long line = 1; start < len; line++) {
        const char *nl = memchr(text + start, '\n', len - start);
        size_t end = nl ? (size_t)(nl - text) : len, i = start;
        while (i < end && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r')) {
            i++;
        }
        if (i < end && text[i] != '#') {
            struct iodfg_filter *f = filter_parse_at(text + start, end - start, line, err);
            if (!f || iodfg_filter_stack_push(fs, f, err) < 0) {
                iodfg_error_at(err, where, line, 0);
                while (fs->n > before) {
                    iodfg_filter_stack_pop(fs);
                }
                return -1;
            }
        }
        start = nl ? end + 1 : len;
    }
    return 0;
}

int iodfg_filter_stack_format(const struct iodfg_filter_stack *fs, const char *sep,
                              struct iodfg_buf *out)
{
    for (size_t i = 0; i < fs->n; i++) {
        if (i) {
            iodfg_buf_addf(out, "%s", sep);
        }
        iodfg_filter_format(fs->f[i], out);
    }
    return out->failed ? -1 : 0;
}

struct iodfg_filter_stack *iodfg_filter_stack_dup(const struct iodfg_filter_stack *fs)
{
    struct iodfg_filter_stack *copy = iodfg_filter_stack_new();
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    for (size_t i = 0; copy && i < fs->n; i++) {
        iodfg_buf_clear(&b);
        struct iodfg_filter *f = NULL;
        if (iodfg_filter_format(fs->f[i], &b) < 0 ||
            !(f = iodfg_filter_parse(b.data, b.len, NULL)) ||
            iodfg_filter_stack_push(copy, f, NULL) < 0) {
            iodfg_filter_stack_free(copy);
            copy = NULL;
        }
    }
    iodfg_buf_fini(&b);
    return copy;
}

uint64_t iodfg_filter_stack_min_edge(const struct iodfg_filter_stack *fs)
{
    uint64_t m = 0;
    for (size_t i = 0; i < fs->n; i++) {
        if (fs->f[i]->kind == IODFG_FILTER_MIN_EDGE && fs->f[i]->number > m) {
            m = fs->f[i]->number;
        }
    }
    return m;
}

uint32_t iodfg_filter_stack_top(const struct iodfg_filter_stack *fs)
{
    uint32_t t = 0;
    for (size_t i = 0; i < fs->n; i++) {
        const struct iodfg_filter *f = fs->f[i];
        if (f->kind == IODFG_FILTER_TOP && f->number && (!t || f->number < t)) {
            t = (uint32_t)f->number;
        }
    }
    return t;
}
