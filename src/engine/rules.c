/* SPDX-License-Identifier: MIT */
/* Rule sets: the text lines, the compiled program in force, line editing, accessors. */
#include "config.h"

#include "iodfg/rules.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"

#include "rules_priv.h"

struct iodfg_rules {
    struct rprog *prog; /* the user's rules; never NULL */
    struct rprog *fhat; /* the default, used while prog has no rules */
    uint64_t gen;
    uint32_t match_limit, depth_limit;
};

static const char FHAT_TEXT[] = "# f-hat: call + path cut to its top two directory levels\n"
                                "map kind = file => {call}:{path:2}\n"
                                "# a call without a file is its name alone\n"
                                "map kind = none => {call}\n"
                                "# sockets, pipes and anonymous inodes count by kind\n"
                                "map => {call}:{kind}\n";

const char *iodfg_rules_default_text(void)
{
    return FHAT_TEXT;
}

static void free_lines(char **lines, unsigned long n)
{
    if (lines) {
        for (unsigned long i = 0; i < n; i++) {
            free(lines[i]);
        }
        free(lines);
    }
}

void rprog_free(struct rprog *p)
{
    if (!p) {
        return;
    }
    for (size_t i = 0; i < p->nrules; i++) {
        rules_rule_fini(&p->rules[i]);
    }
    free(p->rules);
    free_lines(p->lines, p->nlines);
    free(p);
}

struct rprog *rprog_build(char **lines, unsigned long nlines, const char *where,
                          struct iodfg_error *err)
{
    struct rprog *p = calloc(1, sizeof(*p));
    if (!p) {
        free_lines(lines, nlines);
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        return NULL;
    }
    p->lines = lines;
    p->nlines = nlines;
    p->jit = 1;
    p->rules = calloc(nlines ? nlines : 1, sizeof(*p->rules));
    if (!p->rules) {
        rprog_free(p);
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        return NULL;
    }
    for (unsigned long i = 0; i < nlines; i++) {
        struct rule *r = &p->rules[p->nrules];
        int is_rule = 0;
        int rc = rules_parse_line(r, lines[i], i + 1, &is_rule, err);
        if (is_rule || rc < 0) {
            p->nrules++; // owned now, even half-built, so rprog_free releases it
        }
        if (rc < 0) {
            iodfg_error_at(err, where, i + 1, 0);
            rprog_free(p);
            return NULL;
        }
        for (unsigned c = 0; is_rule && c < r->info.ncond; c++) {
            if (r->conds[c].rx) {
                p->jit &= rx_is_jit(r->conds[c].rx);
                uint32_t g = rx_groups(r->conds[c].rx);
                p->max_groups = g > p->max_groups ? g : p->max_groups;
            }
        }
    }
    return p;
}

/* Split text into malloc'ed lines ('\n' separated, a trailing '\r' removed). */
static char **split_lines(const char *text, size_t len, unsigned long *n, const char *where,
                          struct iodfg_error *err)
{
    unsigned long count = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '\0') {
            iodfg_error_set(err, IODFG_E_PARSE, "NUL byte in rule text");
            iodfg_error_at(err, where, count + 1, 0);
            return NULL;
        }
        count += text[i] == '\n';
    }
    count += len > 0 && text[len - 1] != '\n';
    char **lines = calloc(count ? count : 1, sizeof(*lines));
    if (!lines) {
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        return NULL;
    }
    size_t start = 0;
    for (unsigned long k = 0; k < count; k++) {
        const char *nl = memchr(text + start, '\n', len - start);
        size_t end = nl ? (size_t)(nl - text) : len, next = nl ? end + 1 : len;
        if (end > start && text[end - 1] == '\r') {
            end--;
        }
        lines[k] = malloc(end - start + 1);
        if (!lines[k]) {
            free_lines(lines, k);
            iodfg_error_set(err, IODFG_E_NOMEM, NULL);
            return NULL;
        }
        memcpy(lines[k], text + start, end - start);
        lines[k][end - start] = '\0';
        start = next;
    }
    *n = count;
    return lines;
}

static struct rprog *build_text(const char *text, size_t len, const char *where,
                                struct iodfg_error *err)
{
    unsigned long n = 0;
    char **lines = split_lines(text, len, &n, where, err);
    return lines ? rprog_build(lines, n, where, err) : NULL;
}

struct iodfg_rules *iodfg_rules_new(void)
{
    struct iodfg_rules *rs = calloc(1, sizeof(*rs));
    if (!rs) {
        return NULL;
    }
    rs->match_limit = RX_DEFAULT_MATCH_LIMIT;
    rs->depth_limit = RX_DEFAULT_DEPTH_LIMIT;
    rs->prog = build_text("", 0, NULL, NULL);
    rs->fhat = build_text(FHAT_TEXT, strlen(FHAT_TEXT), NULL, NULL);
    if (!rs->prog || !rs->fhat) {
        iodfg_rules_free(rs);
        return NULL;
    }
    return rs;
}

void iodfg_rules_free(struct iodfg_rules *rs)
{
    if (rs) {
        rprog_free(rs->prog);
        rprog_free(rs->fhat);
        free(rs);
    }
}

static void install(struct iodfg_rules *rs, struct rprog *p)
{
    rprog_free(rs->prog);
    rs->prog = p;
    rs->gen++;
}

int iodfg_rules_compile(struct iodfg_rules *rs, const char *text, size_t len, const char *where,
                        struct iodfg_error *err)
{
    struct rprog *p = build_text(text, len, where, err);
    if (!p) {
        return -1;
    }
    install(rs, p);
    return 0;
}

int iodfg_rules_check(const char *text, size_t len, const char *where, struct iodfg_error *err)
{
    struct rprog *p = build_text(text, len, where, err);
    rprog_free(p);
    return p ? 0 : -1;
}

/* Build and install a program from copies of src[0..n) (borrowed strings). */
static int install_copies(struct iodfg_rules *rs, const char *const *src, unsigned long n,
                          struct iodfg_error *err)
{
    char **lines = calloc(n ? n : 1, sizeof(*lines));
    int short_of_memory = !lines;
    for (unsigned long i = 0; lines && i < n; i++) {
        short_of_memory |= !(lines[i] = strdup(src[i]));
    }
    if (short_of_memory) {
        free_lines(lines, n);
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    struct rprog *p = rprog_build(lines, n, NULL, err);
    if (!p) {
        return -1;
    }
    install(rs, p);
    return 0;
}

/* Rebuild from the current lines with [at, at+remove) replaced by `add` (may be NULL). */
static int splice(struct iodfg_rules *rs, unsigned long at, unsigned long remove, const char *add,
                  struct iodfg_error *err)
{
    if (add && strchr(add, '\n')) {
        iodfg_error_set(err, IODFG_E_ARG, "a rule line cannot contain a newline");
        iodfg_error_at(err, NULL, at + 1, 0);
        return -1;
    }
    const struct rprog *old = rs->prog;
    unsigned long n = old->nlines - remove + (add != NULL);
    const char **order = calloc(n ? n : 1, sizeof(*order));
    if (!order) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    unsigned long k = 0;
    for (unsigned long i = 0; i <= old->nlines; i++) {
        if (i == at && add) {
            order[k++] = add;
        }
        if (i < old->nlines && (i < at || i >= at + remove)) {
            order[k++] = old->lines[i];
        }
    }
    int rc = install_copies(rs, order, n, err);
    free(order);
    return rc;
}

static int bad_line(unsigned long line, unsigned long max, struct iodfg_error *err)
{
    if (line >= 1 && line <= max) {
        return 0;
    }
    return iodfg_error_set(err, IODFG_E_ARG, "no rule line %lu (valid: 1 to %lu)", line, max);
}

int iodfg_rules_set_line(struct iodfg_rules *rs, unsigned long line, const char *text,
                         struct iodfg_error *err)
{
    if (bad_line(line, rs->prog->nlines, err)) {
        return -1;
    }
    return splice(rs, line - 1, 1, text, err);
}

int iodfg_rules_insert_line(struct iodfg_rules *rs, unsigned long line, const char *text,
                            struct iodfg_error *err)
{
    if (bad_line(line, rs->prog->nlines + 1, err)) {
        return -1;
    }
    return splice(rs, line - 1, 0, text, err);
}

int iodfg_rules_delete_line(struct iodfg_rules *rs, unsigned long line, struct iodfg_error *err)
{
    if (bad_line(line, rs->prog->nlines, err)) {
        return -1;
    }
    return splice(rs, line - 1, 1, NULL, err);
}

int iodfg_rules_move_line(struct iodfg_rules *rs, unsigned long from, unsigned long to,
                          struct iodfg_error *err)
{
    unsigned long n = rs->prog->nlines;
    if (bad_line(from, n, err) || bad_line(to, n, err)) {
        return -1;
    }
    const char **order = calloc(n, sizeof(*order));
    if (!order) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    // the order without `from`, then `from` put back at index to-1
    unsigned long k = 0;
    for (unsigned long i = 0; i < n; i++) {
        if (k == to - 1) {
            order[k++] = rs->prog->lines[from - 1];
        }
        if (i != from - 1) {
            order[k++] = rs->prog->lines[i];
        }
    }
    if (k < n) {
        order[k++] = rs->prog->lines[from - 1];
    }
    int rc = install_copies(rs, order, n, err);
    free(order);
    return rc;
}

unsigned long iodfg_rules_line_count(const struct iodfg_rules *rs)
{
    return rs->prog->nlines;
}

const char *iodfg_rules_line(const struct iodfg_rules *rs, unsigned long line)
{
    if (line < 1 || line > rs->prog->nlines) {
        return NULL;
    }
    return rs->prog->lines[line - 1];
}

int iodfg_rules_format(const struct iodfg_rules *rs, struct iodfg_buf *out)
{
    for (unsigned long i = 0; i < rs->prog->nlines; i++) {
        if (iodfg_buf_addf(out, "%s\n", rs->prog->lines[i]) < 0) {
            return -1;
        }
    }
    return out->failed ? -1 : 0;
}

size_t iodfg_rules_count(const struct iodfg_rules *rs)
{
    return rs->prog->nrules;
}

const struct iodfg_rule_info *iodfg_rules_get(const struct iodfg_rules *rs, size_t i)
{
    return i < rs->prog->nrules ? &rs->prog->rules[i].info : NULL;
}

uint64_t iodfg_rules_generation(const struct iodfg_rules *rs)
{
    return rs->gen;
}

int iodfg_rules_jit(const struct iodfg_rules *rs)
{
    return rules_active(rs, NULL, NULL)->jit;
}

void iodfg_rules_set_limits(struct iodfg_rules *rs, uint32_t match_limit, uint32_t depth_limit)
{
    if (match_limit) {
        rs->match_limit = match_limit;
    }
    if (depth_limit) {
        rs->depth_limit = depth_limit;
    }
}

const struct rprog *rules_active(const struct iodfg_rules *rs, uint32_t *match_limit,
                                 uint32_t *depth_limit)
{
    if (match_limit) {
        *match_limit = rs->match_limit;
    }
    if (depth_limit) {
        *depth_limit = rs->depth_limit;
    }
    return rs->prog->nrules ? rs->prog : rs->fhat;
}
