/* SPDX-License-Identifier: MIT */
/* Mapping storage, f-hat path truncation and the drill-down rule generator. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/mapping.h"
#include "iodfg/rules.h"
#include "iodfg/strpool.h"

int iodfg_mapping_init(struct iodfg_mapping *m, struct iodfg_error *err)
{
    memset(m, 0, sizeof(*m));
    m->names = iodfg_strpool_new();
    if (!m->names) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    return 0;
}

void iodfg_mapping_fini(struct iodfg_mapping *m)
{
    free(m->activity_of_key);
    free(m->name_of);
    iodfg_strpool_free(m->names);
    memset(m, 0, sizeof(*m));
}

const char *iodfg_mapping_name(const struct iodfg_mapping *m, uint32_t a)
{
    return a < m->nactivities ? iodfg_strpool_get(m->names, m->name_of[a]) : "";
}

int iodfg_mapping_find(const struct iodfg_mapping *m, const char *name, uint32_t *a)
{
    uint32_t id;
    if (!m->names || iodfg_strpool_find(m->names, name, strlen(name), &id) < 0 || id == 0 ||
        id - 1 >= m->nactivities) {
        return -1;
    }
    *a = id - 1;
    return 0;
}

uint64_t iodfg_mapping_unmapped_events(const struct iodfg_mapping *m,
                                       const struct iodfg_eventlog *log)
{
    const struct iodfg_columns *cols = iodfg_eventlog_columns(log);
    uint64_t n = iodfg_eventlog_event_count(log), unmapped = 0;
    if (!cols->key) {
        return 0;
    }
    for (uint64_t i = 0; i < n; i++) {
        uint32_t k = cols->key[i];
        unmapped += k >= m->nkeys || m->activity_of_key[k] == IODFG_NO_ACTIVITY;
    }
    return unmapped;
}

size_t iodfg_rules_path_prefix(const char *path, size_t len, unsigned levels)
{
    if (levels == 0) {
        return 0;
    }
    unsigned seen = 0;
    size_t i = 0;
    while (i < len) {
        while (i < len && path[i] == '/') {
            i++;
        }
        if (i == len) {
            break;
        }
        while (i < len && path[i] != '/') {
            i++;
        }
        if (++seen == levels) {
            return i;
        }
    }
    return len;
}

unsigned iodfg_rules_path_levels(const char *path, size_t len)
{
    unsigned n = 0;
    for (size_t i = 0; i < len; i++) {
        n += path[i] != '/' && (i == 0 || path[i - 1] == '/');
    }
    return n;
}

int iodfg_rules_quote_regex(const char *s, size_t len, struct iodfg_buf *out)
{
    static const char meta[] = "\\^$.|?*+()[]{}#\"";
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c <= ' ' || c >= 0x7f) {
            iodfg_buf_addf(out, "\\x%02x", c); // blanks would end the rule's value token
        } else if (strchr(meta, c)) {
            iodfg_buf_addf(out, "\\%c", c);
        } else {
            iodfg_buf_add(out, s + i, 1);
        }
    }
    return out->failed ? -1 : 0;
}

static int plain_word(const char *s)
{
    if (!*s) {
        return 0;
    }
    for (; *s; s++) {
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '_')) {
            return 0;
        }
    }
    return 1;
}

/* `^PREFIX(/|$)`: the directory itself and everything below it. */
static int prefix_regex(const char *prefix, struct iodfg_buf *out)
{
    size_t n = strlen(prefix);
    iodfg_buf_add(out, "^", 1);
    iodfg_rules_quote_regex(prefix, n, out);
    if (n == 0 || prefix[n - 1] != '/') {
        iodfg_buf_add(out, "(/|$)", 5);
    }
    return out->failed ? -1 : 0;
}

int iodfg_rules_drilldown(const char *call, const char *prefix, unsigned levels,
                          struct iodfg_buf *rule, struct iodfg_buf *filter)
{
    iodfg_buf_add(rule, "map", 3);
    if (call && plain_word(call)) {
        iodfg_buf_addf(rule, " call = %s", call);
    } else if (call) {
        iodfg_buf_add(rule, " call ~ ^", 9);
        iodfg_rules_quote_regex(call, strlen(call), rule);
        iodfg_buf_add(rule, "$", 1);
    }
    if (prefix && *prefix) {
        iodfg_buf_add(rule, " path ~ ", 8);
        prefix_regex(prefix, rule);
        if (filter) {
            iodfg_buf_add(filter, "path~", 5);
            prefix_regex(prefix, filter);
        }
    }
    iodfg_buf_addf(rule, " => {call}:{path:%u}", levels ? levels : 1);
    return rule->failed || (filter && filter->failed) ? -1 : 0;
}
