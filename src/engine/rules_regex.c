/* SPDX-License-Identifier: MIT */
/* PCRE2 wrapper: compile with JIT (interpreter fallback), match under match/depth limits. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "rules_priv.h"

struct rx {
    pcre2_code *code;
    uint32_t groups;
    int jit;
};

struct rx_scratch {
    pcre2_match_context *mctx;
    pcre2_jit_stack *jstack;
    pcre2_match_data **md;
    unsigned slots;
};

struct rx *rx_compile(const char *pat, size_t len, size_t *erroff, char *msg, size_t msgsize,
                      int *nomem)
{
    *nomem = 0;
    *erroff = 0;
    struct rx *r = calloc(1, sizeof(*r));
    if (!r) {
        *nomem = 1;
        return NULL;
    }
    int code = 0;
    PCRE2_SIZE off = 0;
    // Paths are bytes, not necessarily UTF-8: no PCRE2_UTF. Empty patterns are fine.
    r->code = pcre2_compile((PCRE2_SPTR)(len ? pat : ""), len, 0, &code, &off, NULL);
    if (!r->code) {
        free(r);
        if (code == PCRE2_ERROR_NOMEMORY) {
            *nomem = 1;
            return NULL;
        }
        *erroff = off;
        if (msgsize) {
            PCRE2_UCHAR buf[256];
            if (pcre2_get_error_message(code, buf, sizeof(buf)) < 0) {
                strcpy((char *)buf, "invalid regular expression");
            }
            size_t n = strlen((const char *)buf);
            n = n < msgsize - 1 ? n : msgsize - 1;
            memcpy(msg, buf, n);
            msg[n] = '\0';
        }
        return NULL;
    }
    // Without JIT support (or on failure) pcre2_match falls back to the interpreter.
    r->jit = pcre2_jit_compile(r->code, PCRE2_JIT_COMPLETE) == 0;
    uint32_t cap = 0;
    pcre2_pattern_info(r->code, PCRE2_INFO_CAPTURECOUNT, &cap);
    r->groups = cap;
    return r;
}

void rx_free(struct rx *r)
{
    if (r) {
        pcre2_code_free(r->code);
        free(r);
    }
}

uint32_t rx_groups(const struct rx *r)
{
    return r->groups;
}

int rx_is_jit(const struct rx *r)
{
    return r->jit;
}

int rx_group_of(const struct rx *r, const char *name, size_t len)
{
    char buf[256];
    if (len == 0 || len >= sizeof(buf)) {
        return -1;
    }
    memcpy(buf, name, len);
    buf[len] = '\0';
    int n = pcre2_substring_number_from_name(r->code, (PCRE2_SPTR)buf);
    // Duplicate names (only with (?J)) are ambiguous here: refuse them like absent ones.
    return n > 0 ? n : -1;
}

struct rx_scratch *rx_scratch_new(unsigned slots, uint32_t max_groups, uint32_t match_limit,
                                  uint32_t depth_limit)
{
    struct rx_scratch *ms = calloc(1, sizeof(*ms));
    if (!ms) {
        return NULL;
    }
    ms->slots = slots ? slots : 1;
    ms->md = calloc(ms->slots, sizeof(*ms->md));
    ms->mctx = pcre2_match_context_create(NULL);
    if (!ms->md || !ms->mctx) {
        rx_scratch_free(ms);
        return NULL;
    }
    for (unsigned i = 0; i < ms->slots; i++) {
        ms->md[i] = pcre2_match_data_create(max_groups + 1, NULL);
        if (!ms->md[i]) {
            rx_scratch_free(ms);
            return NULL;
        }
    }
    pcre2_set_match_limit(ms->mctx, match_limit);
    pcre2_set_depth_limit(ms->mctx, depth_limit);
    // A bigger JIT stack than the 32 KiB default, so long paths fail by the match limit
    // (reported as such) rather than by stack exhaustion. Optional: NULL keeps the default.
    ms->jstack = pcre2_jit_stack_create(32 * 1024, 1024 * 1024, NULL);
    if (ms->jstack) {
        pcre2_jit_stack_assign(ms->mctx, NULL, ms->jstack);
    }
    return ms;
}

void rx_scratch_free(struct rx_scratch *ms)
{
    if (!ms) {
        return;
    }
    if (ms->md) {
        for (unsigned i = 0; i < ms->slots; i++) {
            pcre2_match_data_free(ms->md[i]);
        }
        free(ms->md);
    }
    pcre2_jit_stack_free(ms->jstack);
    pcre2_match_context_free(ms->mctx);
    free(ms);
}

int rx_match(const struct rx *r, const char *s, size_t len, struct rx_scratch *ms, unsigned slot)
{
    int rc = pcre2_match(r->code, (PCRE2_SPTR)(len ? s : ""), len, 0, 0, ms->md[slot], ms->mctx);
    if (rc >= 0) {
        return 1;
    }
    switch (rc) {
    case PCRE2_ERROR_NOMATCH:
        return 0;
    case PCRE2_ERROR_MATCHLIMIT:
    case PCRE2_ERROR_DEPTHLIMIT:
    case PCRE2_ERROR_HEAPLIMIT:
    case PCRE2_ERROR_JIT_STACKLIMIT:
        return RX_LIMIT;
    default:
        return RX_FAIL;
    }
}

int rx_group(const struct rx_scratch *ms, unsigned slot, uint32_t g, size_t *off, size_t *n)
{
    pcre2_match_data *md = ms->md[slot];
    if (g >= pcre2_get_ovector_count(md)) {
        return -1;
    }
    const PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
    if (ov[2 * g] == PCRE2_UNSET || ov[2 * g + 1] < ov[2 * g]) {
        return -1; // unset, or \K games that put the end before the start
    }
    *off = ov[2 * g];
    *n = ov[2 * g + 1] - ov[2 * g];
    return 0;
}
