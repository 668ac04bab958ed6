/* SPDX-License-Identifier: MIT */
/* Case attributes from file names: a PCRE2 pattern with named groups, or a {x} template. */
#include "config.h"

#include "iodfg/casename.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"

struct iodfg_casename {
    pcre2_code *re;
};

// "{cid}_{host}.st" -> "^(?<cid>.+?)_(?<host>.+?)\.st$"; NULL when s is not a template.
static char *template_to_regex(const char *s)
{
    if (!strchr(s, '{') || strstr(s, "(?<") || strstr(s, "(?P<")) {
        return NULL;
    }
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    iodfg_buf_add(&b, "^", 1);
    for (const char *p = s; *p; p++) {
        const char *close = *p == '{' ? strchr(p, '}') : NULL;
        if (close && close - p > 1) {
            iodfg_buf_addf(&b, "(?<%.*s>.+?)", (int)(close - p - 1), p + 1);
            p = close;
        } else if (strchr("\\^$.|?*+()[]{}", *p)) {
            iodfg_buf_addf(&b, "\\%c", *p);
        } else {
            iodfg_buf_add(&b, p, 1);
        }
    }
    iodfg_buf_add(&b, "$", 1);
    if (b.failed) {
        iodfg_buf_fini(&b);
        return NULL;
    }
    return b.data;
}

struct iodfg_casename *iodfg_casename_new(const char *pattern, struct iodfg_error *err)
{
    const char *src = pattern ? pattern : IODFG_CASENAME_DEFAULT;
    char *tmpl = template_to_regex(src);
    int code;
    PCRE2_SIZE off;
    pcre2_code *re = pcre2_compile((PCRE2_SPTR)(tmpl ? tmpl : src), PCRE2_ZERO_TERMINATED,
                                   PCRE2_DUPNAMES, &code, &off, NULL);
    free(tmpl);
    if (!re) {
        PCRE2_UCHAR msg[160];
        pcre2_get_error_message(code, msg, sizeof(msg));
        iodfg_error_set(err, IODFG_E_REGEX, "invalid name pattern: %s", (const char *)msg);
        iodfg_error_at(err, "--name-pattern", 1, tmpl ? 0 : (unsigned long)off + 1);
        return NULL;
    }
    pcre2_jit_compile(re, PCRE2_JIT_COMPLETE); // falls back to the interpreter if unavailable
    struct iodfg_casename *cn = calloc(1, sizeof(*cn));
    if (!cn) {
        pcre2_code_free(re);
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        return NULL;
    }
    cn->re = re;
    return cn;
}

void iodfg_casename_free(struct iodfg_casename *cn)
{
    if (cn) {
        pcre2_code_free(cn->re);
        free(cn);
    }
}

static void copy_group(pcre2_match_data *md, const char *group, char *out, size_t size)
{
    PCRE2_SIZE len = size;
    out[0] = '\0';
    if (pcre2_substring_copy_byname(md, (PCRE2_SPTR)group, (PCRE2_UCHAR *)out, &len) < 0) {
        out[0] = '\0';
    }
}

int iodfg_casename_apply(const struct iodfg_casename *cn, const char *path, char *name, char *cid,
                         char *host, char *rid, size_t size)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t blen = strlen(base);
    size_t nlen = blen >= 3 && strcmp(base + blen - 3, ".st") == 0 ? blen - 3 : blen;
    snprintf(name, size, "%.*s", (int)nlen, base);
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(cn->re, NULL);
    int matched = md && pcre2_match(cn->re, (PCRE2_SPTR)base, blen, 0, 0, md, NULL) >= 0;
    if (matched) {
        copy_group(md, "cid", cid, size);
        copy_group(md, "host", host, size);
        copy_group(md, "rid", rid, size);
    } else {
        snprintf(cid, size, "%s", name);
        host[0] = rid[0] = '\0';
    }
    pcre2_match_data_free(md);
    return matched;
}
