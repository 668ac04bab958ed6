/* SPDX-License-Identifier: MIT */
/* The session's inputs as text (undo steps, session files) and the undo history over it. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/history.h"
#include "iodfg/strpool.h"

#include "session_priv.h"

#define HISTORY_STEPS 256

/* Case names come from file names: a newline in one must not end its line. */
static void add_escaped(struct iodfg_buf *out, const char *s)
{
    for (; *s; s++) {
        const char *e = *s == '\\' ? "\\\\" : *s == '\n' ? "\\n" : *s == '\r' ? "\\r" : NULL;
        if (e) {
            iodfg_buf_add(out, e, 2);
        } else {
            iodfg_buf_add(out, s, 1);
        }
    }
}

static void unescape(char *s)
{
    char *w = s;
    for (const char *r = s; *r; r++) {
        if (*r == '\\' && (r[1] == '\\' || r[1] == 'n' || r[1] == 'r')) {
            r++;
            *w++ = *r == 'n' ? '\n' : *r == 'r' ? '\r' : '\\';
        } else {
            *w++ = *r;
        }
    }
    *w = '\0';
}

int iodfg_session_state_format(const struct iodfg_session *s, struct iodfg_buf *out)
{
    iodfg_buf_addf(out, "paths %d\nacts %d\n", s->path_pct, s->act_pct);
    if (s->per_pid) {
        iodfg_buf_addf(out, "perpid 1\n");
    }
    if (s->focus == IODFG_FOCUS_APP) {
        iodfg_buf_addf(out, "focus app\n");
    }
    if (iodfg_session_changed_ratio(s) != IODFG_DIFF_CHANGED_RATIO) {
        iodfg_buf_addf(out, "changed %.17g\n", iodfg_session_changed_ratio(s));
    }
    for (unsigned long l = 1; l <= iodfg_rules_line_count(s->rules); l++) {
        iodfg_buf_addf(out, "rule %s\n", iodfg_rules_line(s->rules, l));
    }
    for (size_t i = 0; i < iodfg_filter_stack_count(s->filters); i++) {
        iodfg_buf_add(out, "filter ", 7);
        iodfg_filter_format(iodfg_filter_stack_get(s->filters, i), out);
        iodfg_buf_add(out, "\n", 1);
    }
    for (uint32_t c = 0; c < s->ncases; c++) {
        if (s->g_mark[c] || s->r_mark[c]) {
            iodfg_buf_add(out, s->g_mark[c] ? "g " : "r ", 2);
            add_escaped(out, iodfg_session_case_name(s, c));
            iodfg_buf_add(out, "\n", 1);
        }
    }
    return out->failed ? -1 : 0;
}

/* The case called name (tried as written, then unescaped), or UINT32_MAX. */
static uint32_t find_case(const struct iodfg_session *s, char *name)
{
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(s->log);
    for (int pass = 0; pass < 2; pass++) {
        uint32_t id;
        if (pass == 1) {
            unescape(name);
        }
        if (iodfg_strpool_find(pool, name, strlen(name), &id) == 0) {
            for (uint32_t c = 0; c < s->ncases; c++) {
                if (iodfg_eventlog_case(s->log, c)->name == id) {
                    return c;
                }
            }
        }
    }
    return UINT32_MAX;
}

/* What a state text sets, before it is committed. */
struct parsed {
    struct iodfg_buf rules;
    unsigned long *rule_lines; /* the text's line of each rule line */
    size_t nrules, rules_cap;
    struct iodfg_filter_stack *filters;
    uint8_t *g, *r;
    int paths, acts, per_pid;
    int focus; /* enum iodfg_focus_mode */
    double changed;
};

/* A bad value of one of the session's own lines, named with its column in the line. */
static int bad_number(const char *key, const char *arg, long lo, long hi, struct iodfg_error *err)
{
    size_t n = strlen(arg);
    iodfg_error_set(err, IODFG_E_PARSE, "expected a number from %ld to %ld for '%s', found '%.*s'",
                    lo, hi, key, (int)(n > 60 ? 60 : n), arg);
    if (err) {
        err->col = (unsigned long)strlen(key) + 2;
    }
    return -1;
}

static int add_rule(struct parsed *p, const char *arg, unsigned long lineno)
{
    if (p->nrules == p->rules_cap) {
        size_t cap = p->rules_cap ? 2 * p->rules_cap : 16;
        unsigned long *l = realloc(p->rule_lines, cap * sizeof(*l));
        if (!l) {
            return -1;
        }
        p->rule_lines = l;
        p->rules_cap = cap;
    }
    p->rule_lines[p->nrules++] = lineno;
    return iodfg_buf_addf(&p->rules, "%s\n", arg);
}

static int parse_line(struct iodfg_session *s, struct parsed *p, char *key, char *arg,
                      unsigned long lineno, iodfg_session_line_fn other, void *ctx,
                      struct iodfg_error *err)
{
    if (strcmp(key, "rule") == 0) {
        return add_rule(p, arg, lineno);
    }
    if (strcmp(key, "filter") == 0) {
        int rc = iodfg_filter_stack_push_text(p->filters, arg, err);
        if (rc && err && err->col) {
            err->col += 7; // the column in the whole line
        }
        return rc;
    }
    if (strcmp(key, "focus") == 0) {
        if (strcmp(arg, "app") && strcmp(arg, "all")) {
            return iodfg_error_set(err, IODFG_E_PARSE, "'focus' takes app or all, not '%s'", arg);
        }
        p->focus = strcmp(arg, "app") == 0 ? IODFG_FOCUS_APP : IODFG_FOCUS_ALL;
        return 0;
    }
    if (strcmp(key, "changed") == 0) {
        char *end;
        double v = strtod(arg, &end);
        if (end == arg || *end || !(v > 1 && v < 1e9)) {
            return iodfg_error_set(err, IODFG_E_PARSE, "'changed' takes a ratio above 1");
        }
        p->changed = v;
        return 0;
    }
    if ((strcmp(key, "g") == 0 || strcmp(key, "r") == 0)) {
        uint32_t c = find_case(s, arg); // a case of another log is ignored
        if (c != UINT32_MAX) {
            p->g[c] = key[0] == 'g';
            p->r[c] = key[0] == 'r';
        }
        return 0;
    }
    int per_pid = strcmp(key, "perpid") == 0;
    int *num = strcmp(key, "paths") == 0  ? &p->paths
               : strcmp(key, "acts") == 0 ? &p->acts
               : per_pid                  ? &p->per_pid
                                          : NULL;
    if (num) {
        char *end;
        long hi = per_pid ? 1 : 100;
        long v = strtol(arg, &end, 10);
        if (end == arg || *end || v < 0 || v > hi) {
            return bad_number(key, arg, 0, hi, err);
        }
        *num = (int)v;
        return 0;
    }
    int rc = other ? other(ctx, key, arg, err) : 1;
    if (rc > 0) {
        iodfg_error_set(err, IODFG_E_PARSE, "unknown session line '%s'", key);
        if (err) {
            err->col = 1;
        }
    } else if (rc < 0 && err && err->col) {
        err->col += (unsigned long)strlen(key) + 1; // the handler's column is in arg
    }
    return rc;
}

static int parse_all(struct iodfg_session *s, struct parsed *p, const char *text, size_t len,
                     const char *where, iodfg_session_line_fn other, void *ctx,
                     struct iodfg_error *err)
{
    unsigned long lineno = 0;
    for (size_t pos = 0; pos < len;) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
        char *line = strndup(text + pos, n);
        pos += n + (nl != NULL);
        lineno++;
        if (!line) {
            return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        }
        if (strlen(line) < n) { // a NUL byte would cut the line short unseen
            unsigned long col = (unsigned long)strlen(line) + 1;
            free(line);
            iodfg_error_set(err, IODFG_E_PARSE, "expected text, found a NUL byte");
            iodfg_error_at(err, where, lineno, col);
            return -1;
        }
        char *sp = strchr(line, ' ');
        char *arg = sp ? sp + 1 : line + strlen(line);
        if (sp) {
            *sp = '\0';
        }
        int rc = 0;
        if (line[0] != '#' && line[0] != '\0' && strcmp(line, "log") != 0) {
            rc = parse_line(s, p, line, arg, lineno, other, ctx, err);
        }
        free(line);
        if (rc) {
            iodfg_error_at(err, where, lineno, err && err->col ? err->col : 1);
            return -1;
        }
    }
    return p->rules.failed ? iodfg_error_set(err, IODFG_E_NOMEM, NULL) : 0;
}

/* Compile the rule lines; an error's line is the rule's line in the text, its column in it. */
static int compile_rules(struct iodfg_session *s, const struct parsed *p, const char *where,
                         struct iodfg_error *err)
{
    struct iodfg_error e;
    iodfg_error_clear(&e);
    if (iodfg_rules_compile(s->rules, p->rules.data ? p->rules.data : "", p->rules.len, where,
                            &e) == 0) {
        return 0;
    }
    if (e.line >= 1 && e.line <= p->nrules) {
        e.line = p->rule_lines[e.line - 1];
        e.col = e.col ? e.col + 5 : 0; // after "rule "
    }
    if (err && err->code == IODFG_OK) {
        *err = e;
    }
    return -1;
}

/* Replace the filters by those of p unless they are the same (an unchanged stack keeps the
 * selection, so that undoing a rule edit stays incremental). */
static int commit_filters(struct iodfg_session *s, const struct iodfg_filter_stack *fs,
                          struct iodfg_error *err)
{
    struct iodfg_buf now, next;
    iodfg_buf_init(&now);
    iodfg_buf_init(&next);
    iodfg_filter_stack_format(s->filters, "\n", &now);
    iodfg_filter_stack_format(fs, "\n", &next);
    int rc = 0;
    if (now.failed || next.failed) {
        rc = iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    } else if (now.len != next.len || (now.len && memcmp(now.data, next.data, now.len) != 0)) {
        iodfg_filter_stack_clear(s->filters);
        rc = iodfg_filter_stack_parse(s->filters, next.data ? next.data : "", next.len, "state",
                                      err);
    }
    iodfg_buf_fini(&now);
    iodfg_buf_fini(&next);
    return rc;
}

int iodfg_session_state_parse(struct iodfg_session *s, const char *text, size_t len,
                              const char *where, iodfg_session_line_fn other, void *ctx,
                              struct iodfg_error *err)
{
    struct parsed p = {.paths = 100, .acts = 100};
    iodfg_buf_init(&p.rules);
    p.filters = iodfg_filter_stack_new();
    p.g = calloc((size_t)s->ncases + 1, 1);
    p.r = calloc((size_t)s->ncases + 1, 1);
    int rc = -1;
    if (!p.filters || !p.g || !p.r) {
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    } else if (parse_all(s, &p, text, len, where, other, ctx, err) == 0 &&
               compile_rules(s, &p, where, err) == 0 && commit_filters(s, p.filters, err) == 0) {
        int same = memcmp(s->g_mark, p.g, s->ncases) == 0 && memcmp(s->r_mark, p.r, s->ncases) == 0;
        if (!same) {
            memcpy(s->g_mark, p.g, s->ncases);
            memcpy(s->r_mark, p.r, s->ncases);
            s->groups_dirty = 1;
            s->groups_fixed = 0;
        }
        iodfg_session_set_thresholds(s, p.paths, p.acts);
        iodfg_session_set_per_pid(s, p.per_pid);
        iodfg_session_set_focus(s, (enum iodfg_focus_mode)p.focus);
        iodfg_session_set_changed_ratio(s, p.changed);
        rc = 0;
    }
    iodfg_buf_fini(&p.rules);
    free(p.rule_lines);
    iodfg_filter_stack_free(p.filters);
    free(p.g);
    free(p.r);
    return rc;
}

int iodfg_session_record(struct iodfg_session *s)
{
    if (!s->history && !(s->history = iodfg_history_new(HISTORY_STEPS))) {
        return -1;
    }
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    int rc = iodfg_session_state_format(s, &b)
                 ? -1
                 : iodfg_history_push(s->history, b.data ? b.data : "", b.len);
    iodfg_buf_fini(&b);
    return rc;
}

/* Restore the history's state (after a step) and rebuild; on failure step back. */
static int restore_step(struct iodfg_session *s, const void *snap, size_t len, int redo,
                        struct iodfg_error *err)
{
    if (!snap) {
        return 1;
    }
    // the snapshot lives in the history: parse a copy
    char *copy = malloc(len + 1);
    if (!copy) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    memcpy(copy, snap, len);
    copy[len] = '\0';
    int rc = iodfg_session_state_parse(s, copy, len, "undo", NULL, NULL, err);
    free(copy);
    if (rc == 0) {
        rc = iodfg_session_rebuild(s, err);
    }
    if (rc) {
        size_t n;
        redo ? iodfg_history_undo(s->history, &n) : iodfg_history_redo(s->history, &n);
    }
    return rc;
}

int iodfg_session_undo(struct iodfg_session *s, struct iodfg_error *err)
{
    size_t len = 0;
    const void *snap = s->history ? iodfg_history_undo(s->history, &len) : NULL;
    return restore_step(s, snap, len, 0, err);
}

int iodfg_session_redo(struct iodfg_session *s, struct iodfg_error *err)
{
    size_t len = 0;
    const void *snap = s->history ? iodfg_history_redo(s->history, &len) : NULL;
    return restore_step(s, snap, len, 1, err);
}
