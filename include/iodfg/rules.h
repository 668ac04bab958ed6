/* SPDX-License-Identifier: MIT */
/* Mapping rules: ordered PCRE2 rules that turn (call, path, kind) keys into activities. */
#ifndef IODFG_RULES_H
#define IODFG_RULES_H

#include <stddef.h>
#include <stdint.h>

struct iodfg_buf;
struct iodfg_error;
struct iodfg_eventlog;
struct iodfg_mapping;
struct iodfg_rules;

enum iodfg_rule_action { IODFG_RULE_MAP = 0, IODFG_RULE_DROP = 1 };
/* fs, fstype, scope and layer are the key's file-system attributes (iodfg/mounts.h) and I/O
 * layer: scope names are none, unknown, local, global, virtual; the layer of strace events is
 * POSIX. */
enum iodfg_rule_field {
    IODFG_FIELD_CALL = 0,
    IODFG_FIELD_PATH = 1,
    IODFG_FIELD_KIND = 2,
    IODFG_FIELD_FS = 3,
    IODFG_FIELD_FSTYPE = 4,
    IODFG_FIELD_SCOPE = 5,
    IODFG_FIELD_LAYER = 6,
    IODFG_FIELD_SITE = 7, /* the call site's function (strace -k stacks; "" without one) */
};
/* `~` regex, `!~` regex must not match, `=` one of a list, `!=` none of a list. */
enum iodfg_rule_op { IODFG_OP_MATCH = 0, IODFG_OP_NOMATCH, IODFG_OP_IN, IODFG_OP_NOTIN };

struct iodfg_rule_cond {
    enum iodfg_rule_field field;
    enum iodfg_rule_op op;
    const char *value;  /* the regex or the list as written (quotes removed) */
    unsigned long col;  /* 1-based column of the field name in the line */
    unsigned long vcol; /* 1-based column of the value */
};

/* One rule as the Rules view shows it. Strings are borrowed until the rule set changes. */
struct iodfg_rule_info {
    enum iodfg_rule_action action;
    unsigned long line; /* 1-based line in the rule text */
    const char *text;   /* the whole line */
    const char *tmpl;   /* template after `=>` ("" for drop) */
    unsigned long tcol; /* 1-based column of the template, 0 for drop */
    unsigned ncond;
    const struct iodfg_rule_cond *conds;
};

/* What an apply did. Initialise with _init, release with _fini; reusable across applies. */
struct iodfg_rules_report {
    uint32_t *changed; /* key ids whose activity changed, ascending */
    uint32_t nchanged;
    uint32_t *rule_keys; /* per rule: keys it decided (nrule_keys entries) */
    uint32_t nrule_keys;
    uint64_t regex_evals; /* pcre2 matches run by this apply */
    uint32_t mapped, dropped, unmatched, filtered, empty, limited; /* keys by outcome */
    uint32_t limit_key;              /* first key that hit the match limit (when limited > 0) */
    unsigned long limit_line;        /* its rule's line */
    uint32_t cap_changed, cap_rules; /* allocation sizes, private */
    /* Per key (nkey_rule entries; 0 when the default f-hat is in force): the rule (index of
     * iodfg_rules_get) that decided it, IODFG_RULE_NONE when none did (filtered, unmatched). */
    uint32_t *key_rule;
    uint32_t nkey_rule;
    /* Per rule (nrule_keys entries): for a rule that decided no key, the earlier rule that takes
     * the keys it matches (of those, the one that decided most), IODFG_RULE_NONE otherwise (it
     * decided keys, or matches none of the log's). */
    uint32_t *rule_shadow;
    uint32_t cap_keys, cap_shadow; /* allocation sizes, private */
};
#define IODFG_RULE_NONE UINT32_MAX

/* A new rule set with no rules (it maps by the default f-hat). NULL when out of memory. */
struct iodfg_rules *iodfg_rules_new(void);
void iodfg_rules_free(struct iodfg_rules *rs);

/* Compile a whole rule text (len bytes; need not be NUL-terminated). On error return -1 with
 * err->line/col (1-based; col points into the regex for PCRE2 errors) and where = `where`;
 * the rule set keeps its previous rules. */
int iodfg_rules_compile(struct iodfg_rules *rs, const char *text, size_t len, const char *where,
                        struct iodfg_error *err);
/* Check a rule text without changing anything; errors as for compile. */
int iodfg_rules_check(const char *text, size_t len, const char *where, struct iodfg_error *err);

/* Line editing (lines 1-based; the TUI edits one line at a time). Each recompiles the whole
 * text and changes nothing on error (err->line refers to the edited text). */
int iodfg_rules_set_line(struct iodfg_rules *rs, unsigned long line, const char *text,
                         struct iodfg_error *err);
/* Insert before line (line_count()+1 appends). */
int iodfg_rules_insert_line(struct iodfg_rules *rs, unsigned long line, const char *text,
                            struct iodfg_error *err);
int iodfg_rules_delete_line(struct iodfg_rules *rs, unsigned long line, struct iodfg_error *err);
/* Move line `from` so that it becomes line `to`. */
int iodfg_rules_move_line(struct iodfg_rules *rs, unsigned long from, unsigned long to,
                          struct iodfg_error *err);

/* The text lines (comments and blanks included), borrowed until the next change. */
unsigned long iodfg_rules_line_count(const struct iodfg_rules *rs);
const char *iodfg_rules_line(const struct iodfg_rules *rs, unsigned long line);
/* The whole text, one '\n' after each line, appended to out. -1 when out of memory. */
int iodfg_rules_format(const struct iodfg_rules *rs, struct iodfg_buf *out);
/* Rules (map/drop lines only) in order; get returns NULL past the end. */
size_t iodfg_rules_count(const struct iodfg_rules *rs);
const struct iodfg_rule_info *iodfg_rules_get(const struct iodfg_rules *rs, size_t i);
/* Bumped by every successful change, so callers can tell whether to re-apply. */
uint64_t iodfg_rules_generation(const struct iodfg_rules *rs);
/* Nonzero when every regex of the set runs JIT-compiled. */
int iodfg_rules_jit(const struct iodfg_rules *rs);
/* PCRE2 match and depth limits for later applies (0 keeps the current value). */
void iodfg_rules_set_limits(struct iodfg_rules *rs, uint32_t match_limit, uint32_t depth_limit);

/* Map every key of log into m (initialised with iodfg_mapping_init, used with one log only).
 * key_on (NULL = all) gives keys the filters keep; others get IODFG_NO_ACTIVITY without a
 * regex run. Regexes run once per key. report (may be NULL) gets the changed keys and
 * counts. A key hitting the match limit is left unmapped and counted, not an error.
 * Returns -1 only when out of memory (m then keeps its previous activities). */
int iodfg_rules_apply(const struct iodfg_rules *rs, const struct iodfg_eventlog *log,
                      const uint8_t *key_on, struct iodfg_mapping *m,
                      struct iodfg_rules_report *report, struct iodfg_error *err);

void iodfg_rules_report_init(struct iodfg_rules_report *r);
void iodfg_rules_report_fini(struct iodfg_rules_report *r);
/* The events each rule decided: events[i] (nrule_keys entries) sums key_events(ctx, k) over the
 * keys rule i decided (iodfg_session_key_events: the selected events). */
void iodfg_rules_report_events(const struct iodfg_rules_report *r,
                               uint64_t (*key_events)(const void *ctx, uint32_t key),
                               const void *ctx, uint64_t *events);

/* A search pattern: a PCRE2 regex run with the rules' match and depth limits; caseless when
 * asked (ASCII letters). NULL with err (the column in err->col) when it does not compile or
 * memory runs out. */
struct iodfg_rules_pattern;
struct iodfg_rules_pattern *iodfg_rules_pattern_new(const char *pat, size_t len, int caseless,
                                                    struct iodfg_error *err);
void iodfg_rules_pattern_free(struct iodfg_rules_pattern *p);
/* 1 when s[0..len) has a match, 0 when not, -1 when the match limit was hit (no answer). */
int iodfg_rules_pattern_match(struct iodfg_rules_pattern *p, const char *s, size_t len);

/* Mapping storage (struct in iodfg/mapping.h): init to no keys and no activities. */
int iodfg_mapping_init(struct iodfg_mapping *m, struct iodfg_error *err);
void iodfg_mapping_fini(struct iodfg_mapping *m);
/* Name of activity a (borrowed until the next apply), "" when out of range. */
const char *iodfg_mapping_name(const struct iodfg_mapping *m, uint32_t a);
/* Activity id of a name: 0 and *a when known, -1 otherwise. */
int iodfg_mapping_find(const struct iodfg_mapping *m, const char *name, uint32_t *a);
/* Events of the log whose key maps to no activity. */
uint64_t iodfg_mapping_unmapped_events(const struct iodfg_mapping *m,
                                       const struct iodfg_eventlog *log);

/* The default mapping f-hat written as rules (static text). */
const char *iodfg_rules_default_text(void);
/* The "hpc" preset (static text): f-hat with per-process names folded (doc/rules.md). */
const char *iodfg_rules_hpc_text(void);
/* The text of the named preset ("default", "hpc"), or NULL when there is none. */
const char *iodfg_rules_preset(const char *name);
/* Name of preset i (and a one-line summary into *summary when not NULL); NULL past the last. */
const char *iodfg_rules_preset_name(size_t i, const char **summary);
/* Length of the first `levels` components of path (the f-hat truncation; a path with fewer
 * components is kept whole): "/usr/lib/x/libc.so" with 2 -> 8 ("/usr/lib"). */
size_t iodfg_rules_path_prefix(const char *path, size_t len, unsigned levels);
/* Number of components of path ("/usr/lib" -> 2). */
unsigned iodfg_rules_path_levels(const char *path, size_t len);
/* Append s with every regex metacharacter escaped. -1 when out of memory. */
int iodfg_rules_quote_regex(const char *s, size_t len, struct iodfg_buf *out);
/* Drill-down, one level deeper: append to rule a line mapping the events of `call` (NULL =
 * any) under directory `prefix` to {call}:{path:levels}, and to filter (may be NULL) the
 * matching path filter `path~^PREFIX(/|$)`. -1 when out of memory. */
int iodfg_rules_drilldown(const char *call, const char *prefix, unsigned levels,
                          struct iodfg_buf *rule, struct iodfg_buf *filter);

#endif
