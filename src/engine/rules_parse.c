/* SPDX-License-Identifier: MIT */
/* Rule line parser: `map|drop COND... [=> TEMPLATE]`, conditions compiled, templates checked. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"

#include "rules_priv.h"

struct lexer {
    const char *s;
    size_t i, n;
    unsigned long line;
    struct iodfg_error *err;
};

static int fail(struct lexer *lx, size_t at, enum iodfg_status code, const char *msg)
{
    iodfg_error_set(lx->err, code, "%s", msg);
    iodfg_error_at(lx->err, NULL, lx->line, at + 1);
    return -1;
}

static void skip_ws(struct lexer *lx)
{
    while (lx->i < lx->n && (lx->s[lx->i] == ' ' || lx->s[lx->i] == '\t')) {
        lx->i++;
    }
}

static int at_end(struct lexer *lx)
{
    skip_ws(lx);
    return lx->i >= lx->n || lx->s[lx->i] == '#';
}

static int is_word(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* A value: "quoted" (only \" is unescaped) or a run of non-blanks. Written NUL-terminated to
 * out; value_col maps offsets back to columns. */
static int lex_value(struct lexer *lx, char *out, size_t *outlen, int *quoted)
{
    size_t o = 0;
    *quoted = 0;
    if (lx->s[lx->i] == '"') {
        size_t start = lx->i++;
        *quoted = 1;
        for (;;) {
            if (lx->i >= lx->n) {
                return fail(lx, start, IODFG_E_PARSE, "unterminated quoted value");
            }
            char c = lx->s[lx->i];
            if (c == '\\' && lx->i + 1 < lx->n && lx->s[lx->i + 1] == '"') {
                out[o++] = '"';
                lx->i += 2;
                continue;
            }
            lx->i++;
            if (c == '"') {
                break;
            }
            out[o++] = c;
        }
        if (lx->i < lx->n && lx->s[lx->i] != ' ' && lx->s[lx->i] != '\t') {
            return fail(lx, lx->i, IODFG_E_PARSE, "expected a blank after the closing quote");
        }
    } else {
        while (lx->i < lx->n && lx->s[lx->i] != ' ' && lx->s[lx->i] != '\t') {
            out[o++] = lx->s[lx->i++];
        }
    }
    out[o] = '\0';
    *outlen = o;
    return 0;
}

/* Column (0-based) in the line of byte off of an unquoted value that started at vstart. */
static size_t value_col(const char *line, size_t vstart, int quoted, size_t off)
{
    if (!quoted) {
        return vstart + off;
    }
    size_t i = vstart + 1, k = 0;
    while (k < off && line[i]) {
        i += (line[i] == '\\' && line[i + 1] == '"') ? 2 : 1;
        k++;
    }
    return i;
}

static int kind_bit(const char *name, size_t len)
{
    for (int k = IODFG_PATH_NONE; k <= IODFG_PATH_OTHER; k++) {
        const char *kn = iodfg_path_kind_name((enum iodfg_path_kind)k);
        if (strlen(kn) == len && memcmp(kn, name, len) == 0) {
            return k;
        }
    }
    return -1;
}

static int scope_of(const char *name, size_t len)
{
    for (int s = IODFG_SCOPE_NONE; s < IODFG_SCOPE__N; s++) {
        const char *sn = iodfg_scope_name((enum iodfg_scope)s);
        if (strlen(sn) == len && memcmp(sn, name, len) == 0) {
            return s;
        }
    }
    return -1;
}

static int split_items(struct lexer *lx, struct cond *c, struct iodfg_rule_cond *pc, char *val,
                       size_t vstart, int quoted)
{
    size_t len = strlen(val), count = 1;
    int single = pc->field == IODFG_FIELD_PATH; // paths may contain commas: one exact value
    for (size_t i = 0; !single && i < len; i++) {
        count += val[i] == ',';
    }
    c->items = calloc(count, sizeof(*c->items));
    if (!c->items) {
        return fail(lx, vstart, IODFG_E_NOMEM, "out of memory");
    }
    size_t start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && (single || val[i] != ',')) {
            continue;
        }
        size_t n = i - start;
        size_t at = value_col(lx->s, vstart, quoted, start);
        if (n == 0) {
            return fail(lx, at, IODFG_E_PARSE, "empty item in list");
        }
        if (pc->field == IODFG_FIELD_KIND) {
            int k = kind_bit(val + start, n);
            if (k < 0) {
                return fail(lx, at, IODFG_E_PARSE,
                            "unknown kind (expected file, socket, pipe, anon, other or none)");
            }
            c->kinds |= 1u << k;
        }
        if (pc->field == IODFG_FIELD_SCOPE && scope_of(val + start, n) < 0) {
            return fail(lx, at, IODFG_E_PARSE,
                        "unknown scope (expected local, global, virtual, unknown or none)");
        }
        c->items[c->nitems] = val + start;
        c->nitems++;
        val[i] = '\0';
        start = i + 1;
    }
    return 0;
}

static int parse_cond(struct lexer *lx, struct rule *r, char **vbuf)
{
    if (r->info.ncond == RULES_MAX_CONDS) {
        return fail(lx, lx->i, IODFG_E_PARSE, "too many conditions on one line (at most 8)");
    }
    struct iodfg_rule_cond *pc = &r->pub[r->info.ncond];
    struct cond *c = &r->conds[r->info.ncond];
    size_t fstart = lx->i;
    while (lx->i < lx->n && is_word(lx->s[lx->i])) {
        lx->i++;
    }
    size_t flen = lx->i - fstart;
    const char *f = lx->s + fstart;
    if (flen == 4 && memcmp(f, "call", 4) == 0) {
        pc->field = IODFG_FIELD_CALL;
    } else if (flen == 4 && memcmp(f, "path", 4) == 0) {
        pc->field = IODFG_FIELD_PATH;
    } else if (flen == 4 && memcmp(f, "kind", 4) == 0) {
        pc->field = IODFG_FIELD_KIND;
    } else if (flen == 2 && memcmp(f, "fs", 2) == 0) {
        pc->field = IODFG_FIELD_FS;
    } else if (flen == 6 && memcmp(f, "fstype", 6) == 0) {
        pc->field = IODFG_FIELD_FSTYPE;
    } else if (flen == 5 && memcmp(f, "scope", 5) == 0) {
        pc->field = IODFG_FIELD_SCOPE;
    } else if (flen == 5 && memcmp(f, "layer", 5) == 0) {
        pc->field = IODFG_FIELD_LAYER;
    } else if (flen == 4 && memcmp(f, "site", 4) == 0) {
        pc->field = IODFG_FIELD_SITE;
    } else if (flen == 0) {
        return fail(lx, fstart, IODFG_E_PARSE,
                    "expected a field (call, path, kind, fs, fstype, scope, layer or site) or `=>`");
    } else {
        return fail(lx, fstart, IODFG_E_PARSE,
                    "unknown field (expected call, path, kind, fs, fstype, scope, layer or site)");
    }
    pc->col = fstart + 1;
    skip_ws(lx);
    size_t opat = lx->i;
    const char *o = lx->s + lx->i;
    size_t left = lx->n - lx->i;
    if (left >= 2 && o[0] == '!' && o[1] == '~') {
        pc->op = IODFG_OP_NOMATCH, lx->i += 2;
    } else if (left >= 2 && o[0] == '!' && o[1] == '=') {
        pc->op = IODFG_OP_NOTIN, lx->i += 2;
    } else if (left >= 1 && o[0] == '~') {
        pc->op = IODFG_OP_MATCH, lx->i += 1;
    } else if (left >= 1 && o[0] == '=' && !(left >= 2 && o[1] == '>')) {
        pc->op = IODFG_OP_IN, lx->i += 1;
    } else {
        return fail(lx, opat, IODFG_E_PARSE, "expected `~`, `!~`, `=` or `!=` after the field");
    }
    if (pc->field == IODFG_FIELD_KIND && (pc->op == IODFG_OP_MATCH || pc->op == IODFG_OP_NOMATCH)) {
        return fail(lx, opat, IODFG_E_PARSE, "kind takes `=` or `!=` and a list of kinds");
    }
    skip_ws(lx);
    if (lx->i >= lx->n) {
        return fail(lx, lx->i, IODFG_E_PARSE, "expected a value after the operator");
    }
    size_t vstart = lx->i, vlen = 0;
    int quoted = 0;
    char *val = *vbuf;
    if (lex_value(lx, val, &vlen, &quoted) < 0) {
        return -1;
    }
    *vbuf += vlen + 1;
    pc->value = val;
    pc->vcol = vstart + 1;
    r->info.ncond++;
    if (pc->op == IODFG_OP_IN || pc->op == IODFG_OP_NOTIN) {
        // keep pc->value whole: split a copy placed right after it in the buffer
        char *copy = *vbuf;
        memcpy(copy, val, vlen + 1);
        *vbuf += vlen + 1;
        return split_items(lx, c, pc, copy, vstart, quoted);
    }
    size_t erroff = 0;
    int nomem = 0;
    char msg[200];
    c->rx = rx_compile(val, vlen, &erroff, msg, sizeof(msg), &nomem);
    if (!c->rx) {
        if (nomem) {
            return fail(lx, vstart, IODFG_E_NOMEM, "out of memory");
        }
        iodfg_error_set(lx->err, IODFG_E_REGEX, "invalid regex: %s", msg);
        iodfg_error_at(lx->err, NULL, lx->line, value_col(lx->s, vstart, quoted, erroff) + 1);
        return -1;
    }
    return 0;
}

int rules_parse_line(struct rule *r, const char *line, unsigned long lineno, int *is_rule,
                     struct iodfg_error *err)
{
    struct lexer lx = {.s = line, .i = 0, .n = strlen(line), .line = lineno, .err = err};
    memset(r, 0, sizeof(*r));
    *is_rule = 0;
    if (at_end(&lx)) {
        return 0;
    }
    size_t astart = lx.i;
    while (lx.i < lx.n && is_word(line[lx.i])) {
        lx.i++;
    }
    size_t alen = lx.i - astart;
    if (alen == 3 && memcmp(line + astart, "map", 3) == 0) {
        r->info.action = IODFG_RULE_MAP;
    } else if (alen == 4 && memcmp(line + astart, "drop", 4) == 0) {
        r->info.action = IODFG_RULE_DROP;
    } else {
        return fail(&lx, astart, IODFG_E_PARSE, "expected `map` or `drop` (or a # comment)");
    }
    *is_rule = 1;
    r->info.line = lineno;
    r->info.text = line;
    r->info.tmpl = "";
    r->pub = calloc(RULES_MAX_CONDS, sizeof(*r->pub));
    r->conds = calloc(RULES_MAX_CONDS, sizeof(*r->conds));
    // each value at most twice (whole + split copy), then the template
    r->value_buf = malloc(3 * lx.n + 2 * RULES_MAX_CONDS + 8);
    if (!r->pub || !r->conds || !r->value_buf) {
        return fail(&lx, astart, IODFG_E_NOMEM, "out of memory");
    }
    r->info.conds = r->pub;
    char *vbuf = r->value_buf;
    for (;;) {
        if (at_end(&lx)) {
            if (r->info.action == IODFG_RULE_MAP) {
                return fail(&lx, lx.i, IODFG_E_PARSE, "expected `=> TEMPLATE` at the end of map");
            }
            return 0;
        }
        if (lx.i + 1 < lx.n && line[lx.i] == '=' && line[lx.i + 1] == '>') {
            if (r->info.action == IODFG_RULE_DROP) {
                return fail(&lx, lx.i, IODFG_E_PARSE, "drop takes no `=> TEMPLATE`");
            }
            return rules_parse_template(r, line, lx.i + 2, lineno, vbuf, err);
        }
        if (parse_cond(&lx, r, &vbuf) < 0) {
            return -1;
        }
        if (lx.i < lx.n && line[lx.i] != ' ' && line[lx.i] != '\t') {
            return fail(&lx, lx.i, IODFG_E_PARSE, "expected a blank after the value");
        }
    }
}

void rules_rule_fini(struct rule *r)
{
    if (r->conds) {
        for (unsigned i = 0; i < RULES_MAX_CONDS; i++) {
            rx_free(r->conds[i].rx);
            free(r->conds[i].items);
        }
    }
    free(r->conds);
    free(r->pub);
    free(r->value_buf);
    free(r->lits);
    free(r->parts);
    memset(r, 0, sizeof(*r));
}
