/* SPDX-License-Identifier: MIT */
/* Engine-internal: the PCRE2 wrapper shared by rules and filters, and compiled rule programs. */
#ifndef IODFG_ENGINE_RULES_PRIV_H
#define IODFG_ENGINE_RULES_PRIV_H

#include <stddef.h>
#include <stdint.h>

#include "iodfg/rules.h"

struct iodfg_error;

/* ---- regex wrapper (the only user of <pcre2.h> is rules_regex.c) ---- */
struct rx;         /* one compiled pattern, immutable after compile */
struct rx_scratch; /* match state of one thread: limits, JIT stack, `slots` match data */

#define RX_LIMIT (-2) /* match or depth limit hit */
#define RX_FAIL (-3)  /* any other match error */

#define RX_DEFAULT_MATCH_LIMIT 200000u
#define RX_DEFAULT_DEPTH_LIMIT 5000u

/* Compile pat. NULL on error: *nomem set when out of memory, else *erroff (byte offset into
 * pat) and msg describe the syntax error. */
struct rx *rx_compile(const char *pat, size_t len, size_t *erroff, char *msg, size_t msgsize,
                      int *nomem);
void rx_free(struct rx *r);
uint32_t rx_groups(const struct rx *r);
int rx_is_jit(const struct rx *r);
/* Number of the group called name, or -1 when there is none. */
int rx_group_of(const struct rx *r, const char *name, size_t len);

struct rx_scratch *rx_scratch_new(unsigned slots, uint32_t max_groups, uint32_t match_limit,
                                  uint32_t depth_limit);
void rx_scratch_free(struct rx_scratch *ms);
/* 1 on a match (groups kept in slot), 0 on none, RX_LIMIT or RX_FAIL. */
int rx_match(const struct rx *r, const char *s, size_t len, struct rx_scratch *ms, unsigned slot);
/* Group g of the last match in slot: 0 with *off and *n, or -1 when it did not take part. */
int rx_group(const struct rx_scratch *ms, unsigned slot, uint32_t g, size_t *off, size_t *n);

/* ---- compiled rules ---- */
enum tpart_type {
    TP_LIT,
    TP_CALL,
    TP_PATH,
    TP_KIND,
    TP_PATHN,
    TP_GROUP,
    TP_FS,
    TP_FSTYPE,
    TP_SCOPE,
    TP_LAYER,
    TP_SITE,
};

struct tpart {
    enum tpart_type type;
    size_t off, len; /* TP_LIT: bytes in rule.lits */
    unsigned n;      /* TP_PATHN: levels */
    unsigned cond;   /* TP_GROUP: condition whose regex holds the group */
    uint32_t group;  /* TP_GROUP: group number inside that regex */
};

struct cond {
    struct rx *rx; /* ~ and !~ */
    char **items;  /* = and != */
    size_t nitems;
    unsigned kinds; /* kind = / !=: bit per enum iodfg_path_kind */
};

struct rule {
    struct iodfg_rule_info info; /* public view; strings point into the program's lines */
    struct iodfg_rule_cond *pub;
    struct cond *conds;
    char *value_buf; /* unquoted condition values, NUL-separated */
    char *lits;      /* template literal bytes */
    struct tpart *parts;
    size_t nparts;
};

#define RULES_MAX_CONDS 8

struct rprog {
    char **lines;
    unsigned long nlines;
    struct rule *rules;
    size_t nrules;
    int jit;             /* every regex JIT-compiled */
    uint32_t max_groups; /* largest group count of one regex */
};

/* Parse and compile one line; *is_rule = 0 for blank and comment lines. */
int rules_parse_line(struct rule *r, const char *line, unsigned long lineno, int *is_rule,
                     struct iodfg_error *err);
void rules_rule_fini(struct rule *r);
/* Parse the template of r starting at byte `at` of line into parts (copy kept in tbuf). */
int rules_parse_template(struct rule *r, const char *line, size_t at, unsigned long lineno,
                         char *tbuf, struct iodfg_error *err);

/* Build a program from lines (takes ownership of the array and strings, freed on failure). */
struct rprog *rprog_build(char **lines, unsigned long nlines, const char *where,
                          struct iodfg_error *err);
void rprog_free(struct rprog *p);

/* The program applied: the user's, or f-hat when the user's has no rules. */
const struct rprog *rules_active(const struct iodfg_rules *rs, uint32_t *match_limit,
                                 uint32_t *depth_limit);

/* ---- used by the focus classes (focus.c) ---- */

struct iodfg_buf;
struct iodfg_mapping;

/* The activity id of name in m, added when new (ids stay stable). 0, or -1 out of memory. */
int rules_mapping_intern(struct iodfg_mapping *m, const char *name, size_t len, uint32_t *a);

/* A key that belongs to no log (a stack frame's object path): every field may be NULL for "". */
struct rules_key {
    const char *call, *path, *fs, *fstype, *scope, *layer;
    unsigned kind;    /* enum iodfg_path_kind */
    const char *site; /* the call site's function; NULL = "" */
};
/* Decide k as iodfg_rules_apply would: 1 with the template's expansion in out (cleared first),
 * 0 when no rule maps it (unmatched, dropped, or an empty expansion), -1 when out of memory.
 * *line gets the deciding rule's line (0: none); *limited is set when a regex hit the PCRE2
 * match or depth limit (that rule then counted as not matching). */
int rules_map_one(const struct iodfg_rules *rs, const struct rules_key *k, struct iodfg_buf *out,
                  unsigned long *line, int *limited);

#endif
