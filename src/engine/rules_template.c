/* SPDX-License-Identifier: MIT */
/* Rule templates: {call} {path} {kind} {path:N} $0-$9 ${N} ${name}, checked at compile time. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"

#include "rules_priv.h"

struct tparse {
    struct rule *r;
    const char *t; /* the template, NUL-terminated */
    size_t n;
    size_t col0; /* 0-based column of t[0] in the line */
    unsigned long line;
    struct iodfg_error *err;
    size_t nlits;
};

__attribute__((format(printf, 4, 5))) static int tfail(struct tparse *tp, size_t off,
                                                       enum iodfg_status code, const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    iodfg_error_set(tp->err, code, "%s", msg);
    iodfg_error_at(tp->err, NULL, tp->line, tp->col0 + off + 1);
    return -1;
}

static void add_lit(struct tparse *tp, char c)
{
    struct rule *r = tp->r;
    if (r->nparts == 0 || r->parts[r->nparts - 1].type != TP_LIT) {
        r->parts[r->nparts].type = TP_LIT;
        r->parts[r->nparts].off = tp->nlits;
        r->parts[r->nparts].len = 0;
        r->nparts++;
    }
    r->lits[tp->nlits++] = c;
    r->parts[r->nparts - 1].len++;
}

/* Resolve group number g counted across the line's `~` conditions ($1 = first group of the
 * first regex); 0 means the whole match of the first regex. */
static int group_by_number(struct tparse *tp, size_t at, unsigned long g)
{
    const struct rule *r = tp->r;
    unsigned long base = 0;
    int any = 0;
    for (unsigned i = 0; i < r->info.ncond; i++) {
        if (r->pub[i].op != IODFG_OP_MATCH) {
            continue;
        }
        uint32_t n = rx_groups(r->conds[i].rx);
        if ((g == 0 && !any) || (g > base && g <= base + n)) {
            struct tpart *p = &tp->r->parts[tp->r->nparts++];
            p->type = TP_GROUP;
            p->cond = i;
            p->group = g == 0 ? 0 : (uint32_t)(g - base);
            return 0;
        }
        any = 1;
        base += n;
    }
    if (!any) {
        return tfail(tp, at, IODFG_E_PARSE, "the template uses a group, but the rule has no `~`");
    }
    return tfail(tp, at, IODFG_E_PARSE, "no group %lu in the rule's regexes (they have %lu)", g,
                 base);
}

static int group_by_name(struct tparse *tp, size_t at, const char *name, size_t len)
{
    struct rule *r = tp->r;
    int found = -1;
    uint32_t num = 0;
    for (unsigned i = 0; i < r->info.ncond; i++) {
        if (r->pub[i].op != IODFG_OP_MATCH) {
            continue;
        }
        int g = rx_group_of(r->conds[i].rx, name, len);
        if (g > 0) {
            if (found >= 0) {
                return tfail(tp, at, IODFG_E_PARSE, "group name '%.*s' is used by two regexes",
                             (int)(len < 60 ? len : 60), name);
            }
            found = (int)i;
            num = (uint32_t)g;
        }
    }
    if (found < 0) {
        return tfail(tp, at, IODFG_E_PARSE, "no group named '%.*s' in the rule's regexes",
                     (int)(len < 60 ? len : 60), name);
    }
    struct tpart *p = &r->parts[r->nparts++];
    p->type = TP_GROUP;
    p->cond = (unsigned)found;
    p->group = num;
    return 0;
}

static int parse_dollar(struct tparse *tp, size_t *i)
{
    size_t at = *i;
    const char *t = tp->t;
    if (t[at + 1] >= '0' && t[at + 1] <= '9') {
        *i = at + 2;
        return group_by_number(tp, at, (unsigned long)(t[at + 1] - '0'));
    }
    if (t[at + 1] != '{') {
        return tfail(tp, at, IODFG_E_PARSE,
                     "`$` must be followed by a digit or {name} (write \\$ for a dollar sign)");
    }
    const char *close = strchr(t + at + 2, '}');
    if (!close) {
        return tfail(tp, at, IODFG_E_PARSE, "unclosed `${`");
    }
    const char *name = t + at + 2;
    size_t len = (size_t)(close - name), digits = 0;
    while (digits < len && name[digits] >= '0' && name[digits] <= '9') {
        digits++;
    }
    *i = (size_t)(close - t) + 1;
    if (len == 0) {
        return tfail(tp, at, IODFG_E_PARSE, "empty group name in `${}`");
    }
    if (digits == len) {
        unsigned long g = len > 6 ? 999999 : strtoul(name, NULL, 10);
        return group_by_number(tp, at, g);
    }
    return group_by_name(tp, at, name, len);
}

static int parse_brace(struct tparse *tp, size_t *i)
{
    size_t at = *i;
    const char *close = strchr(tp->t + at + 1, '}');
    if (!close) {
        return tfail(tp, at, IODFG_E_PARSE, "unclosed `{` (write \\{ for a brace)");
    }
    const char *f = tp->t + at + 1;
    size_t len = (size_t)(close - f);
    *i = (size_t)(close - tp->t) + 1;
    struct tpart *p = &tp->r->parts[tp->r->nparts];
    if (len == 4 && memcmp(f, "call", 4) == 0) {
        p->type = TP_CALL;
    } else if (len == 4 && memcmp(f, "path", 4) == 0) {
        p->type = TP_PATH;
    } else if (len == 4 && memcmp(f, "kind", 4) == 0) {
        p->type = TP_KIND;
    } else if (len == 2 && memcmp(f, "fs", 2) == 0) {
        p->type = TP_FS;
    } else if (len == 6 && memcmp(f, "fstype", 6) == 0) {
        p->type = TP_FSTYPE;
    } else if (len == 5 && memcmp(f, "scope", 5) == 0) {
        p->type = TP_SCOPE;
    } else if (len == 5 && memcmp(f, "layer", 5) == 0) {
        p->type = TP_LAYER;
    } else if (len == 4 && memcmp(f, "site", 4) == 0) {
        p->type = TP_SITE;
    } else if (len > 5 && memcmp(f, "path:", 5) == 0) {
        unsigned long n = 0;
        for (size_t k = 5; k < len; k++) {
            if (f[k] < '0' || f[k] > '9' || n > 1000) {
                return tfail(tp, at, IODFG_E_PARSE, "{path:N} needs a number N of levels");
            }
            n = n * 10 + (unsigned long)(f[k] - '0');
        }
        if (n == 0 || n > 255) {
            return tfail(tp, at, IODFG_E_PARSE, "{path:N} needs 1 <= N <= 255");
        }
        p->type = TP_PATHN;
        p->n = (unsigned)n;
    } else {
        return tfail(tp, at, IODFG_E_PARSE, "%s",
                     "unknown template field (expected {call}, {path}, {path:N}, {kind}, {fs}, "
                     "{fstype}, {scope}, {layer} or {site})");
    }
    tp->r->nparts++;
    return 0;
}

int rules_parse_template(struct rule *r, const char *line, size_t at, unsigned long lineno,
                         char *tbuf, struct iodfg_error *err)
{
    size_t n = strlen(line), at0 = at;
    while (at < n && (line[at] == ' ' || line[at] == '\t')) {
        at++;
    }
    size_t end = at;
    while (end < n &&
           !(line[end] == '#' && end > at && (line[end - 1] == ' ' || line[end - 1] == '\t'))) {
        end++;
    }
    while (end > at && (line[end - 1] == ' ' || line[end - 1] == '\t')) {
        end--;
    }
    struct tparse tp = {.r = r, .t = tbuf, .n = end - at, .col0 = at, .line = lineno, .err = err};
    if (tp.n == 0) {
        tp.col0 = at0;
        return tfail(&tp, 0, IODFG_E_PARSE, "expected a template after `=>`");
    }
    memcpy(tbuf, line + at, tp.n);
    tbuf[tp.n] = '\0';
    r->info.tmpl = tbuf;
    r->info.tcol = at + 1;
    r->lits = malloc(tp.n + 1);
    r->parts = calloc(tp.n + 1, sizeof(*r->parts));
    if (!r->lits || !r->parts) {
        return tfail(&tp, 0, IODFG_E_NOMEM, "out of memory");
    }
    for (size_t i = 0; i < tp.n;) {
        char c = tbuf[i];
        if (c == '\\' && i + 1 < tp.n) {
            add_lit(&tp, tbuf[i + 1]);
            i += 2;
        } else if (c == '$') {
            if (parse_dollar(&tp, &i) < 0) {
                return -1;
            }
        } else if (c == '{') {
            if (parse_brace(&tp, &i) < 0) {
                return -1;
            }
        } else {
            add_lit(&tp, c);
            i++;
        }
    }
    return 0;
}
