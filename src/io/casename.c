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
    pcre2_match_context *mctx; /* match limits: a pattern cannot hang on a hostile name */
    int with_dirs;             /* the pattern has a '/': it matches the path below the argument */
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
            iodfg_buf_addf(&b, "(?<%.*s>[^/]+?)", (int)(close - p - 1), p + 1);
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

/* The fields a pattern may name. */
static int field_id(const char *name, size_t len)
{
    static const char *const fields[] = {"cid", "host", "rid"};
    for (int i = 0; i < 3; i++) {
        if (strlen(fields[i]) == len && memcmp(fields[i], name, len) == 0) {
            return i;
        }
    }
    return -1;
}

/* Every named group is cid, host or rid, each once, and cid is there. 0, or -1 with err. */
static int check_fields(const pcre2_code *re, const char *src, struct iodfg_error *err)
{
    uint32_t count = 0, entry = 0;
    PCRE2_SPTR table = NULL;
    pcre2_pattern_info(re, PCRE2_INFO_NAMECOUNT, &count);
    pcre2_pattern_info(re, PCRE2_INFO_NAMEENTRYSIZE, &entry);
    pcre2_pattern_info(re, PCRE2_INFO_NAMETABLE, &table);
    int seen[3] = {0, 0, 0};
    for (uint32_t i = 0; i < count; i++) {
        const char *name = (const char *)(table + (size_t)i * entry + 2);
        int id = field_id(name, strlen(name));
        const char *at = strstr(src, name);
        unsigned long col = at ? (unsigned long)(at - src) + 1 : 0;
        if (id < 0) {
            iodfg_error_set(err, IODFG_E_ARG,
                            "unknown field '%s' in the name pattern (the fields are cid, host "
                            "and rid)",
                            name);
        } else if (seen[id]++) {
            iodfg_error_set(err, IODFG_E_ARG, "field '%s' appears twice in the name pattern", name);
        } else {
            continue;
        }
        iodfg_error_at(err, "--name-pattern", 1, col);
        return -1;
    }
    if (!seen[0]) {
        iodfg_error_set(err, IODFG_E_ARG,
                        "the name pattern has no cid field (the run a case belongs to), e.g. "
                        "'{cid}_{host}_{rid}.st' or '{cid}/stio.{rid}.{host}.st'");
        iodfg_error_at(err, "--name-pattern", 1, 0);
        return -1;
    }
    return 0;
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
    struct iodfg_casename *cn = check_fields(re, src, err) ? NULL : calloc(1, sizeof(*cn));
    pcre2_match_context *mctx = cn ? pcre2_match_context_create(NULL) : NULL;
    if (!cn || !mctx) {
        if (err && err->code == IODFG_OK) {
            iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        }
        pcre2_code_free(re);
        free(cn);
        return NULL;
    }
    pcre2_jit_compile(re, PCRE2_JIT_COMPLETE); // falls back to the interpreter if unavailable
    pcre2_set_match_limit(mctx, 1000000);
    pcre2_set_depth_limit(mctx, 10000);
    cn->re = re;
    cn->mctx = mctx;
    cn->with_dirs = strchr(src, '/') != NULL;
    return cn;
}

void iodfg_casename_free(struct iodfg_casename *cn)
{
    if (cn) {
        pcre2_code_free(cn->re);
        pcre2_match_context_free(cn->mctx);
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

int iodfg_casename_apply(const struct iodfg_casename *cn, const char *rel, char *cid, char *host,
                         char *rid, size_t size)
{
    const char *base = strrchr(rel, '/');
    const char *subject = cn->with_dirs || !base ? rel : base + 1;
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(cn->re, NULL);
    int matched =
        md && pcre2_match(cn->re, (PCRE2_SPTR)subject, strlen(subject), 0, 0, md, cn->mctx) >= 0;
    cid[0] = host[0] = rid[0] = '\0';
    if (matched) {
        copy_group(md, "cid", cid, size);
        copy_group(md, "host", host, size);
        copy_group(md, "rid", rid, size);
    }
    pcre2_match_data_free(md);
    return matched;
}
