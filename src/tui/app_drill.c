/* SPDX-License-Identifier: MIT */
/* Drill-down (Enter on an activity): a rule one directory level deeper than the activity's
 * paths, first in the rules, and the filter on that directory (and call), so the activity
 * splits into its subdirectories; u undoes both. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/filter.h"
#include "iodfg/rules.h"
#include "iodfg/session.h"
#include "iodfg/strpool.h"

#include "tui/app_priv.h"

static size_t common_dir(const char *a, size_t alen, const char *b, size_t blen)
{
    size_t n = 0, last = 0;
    while (n < alen && n < blen && a[n] == b[n]) {
        n++;
        if (a[n - 1] == '/' && n > 1) {
            last = n - 1;
        }
    }
    // both continue with a separator (or end) at n: the whole common part is a directory
    if ((n == alen || a[n] == '/') && (n == blen || b[n] == '/')) {
        last = n;
    }
    return last;
}

/* The line holding exactly text, or 0: a second drill-down must not add the same rule. */
static unsigned long rule_line_of(const struct iodfg_rules *rules, const char *text)
{
    for (unsigned long l = 1; l <= iodfg_rules_line_count(rules); l++) {
        if (strcmp(iodfg_rules_line(rules, l), text) == 0) {
            return l;
        }
    }
    return 0;
}

int tui_app_drilldown(struct tui_app *app, uint32_t a, struct iodfg_error *err)
{
    const uint32_t *act = iodfg_session_key_activities(app->ses);
    const struct iodfg_key *keys = iodfg_eventlog_keys(app->log);
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(app->log);
    uint32_t nkeys = iodfg_eventlog_key_count(app->log);
    const char *prefix = NULL, *call = NULL;
    size_t plen = 0;
    int mixed_calls = 0;
    for (uint32_t k = 0; k < nkeys; k++) {
        if (act[k] != a) {
            continue;
        }
        const char *c = iodfg_strpool_get(pool, keys[k].call);
        const char *p = iodfg_strpool_get(pool, keys[k].path);
        size_t len = iodfg_strpool_len(pool, keys[k].path);
        if (keys[k].kind != IODFG_PATH_FILE || len == 0 || p[0] != '/') {
            continue;
        }
        if (!call) {
            call = c;
        } else if (strcmp(call, c) != 0) {
            mixed_calls = 1;
        }
        if (!prefix) {
            prefix = p;
            // a single file: its directory
            plen = len;
            const char *slash = memchr(p, '/', len) ? strrchr(p, '/') : NULL;
            plen = slash && slash > p ? (size_t)(slash - p) : len;
        } else {
            size_t n = common_dir(prefix, plen, p, len);
            plen = n < plen ? n : plen;
        }
    }
    if (!prefix || plen == 0) {
        return iodfg_error_set(err, IODFG_E_ARG, "'%s' has no file paths to drill into",
                               tui_app_activity_name(app, a));
    }
    char *dir = strndup(prefix, plen);
    char *callc = call && !mixed_calls ? strdup(call) : NULL;
    struct iodfg_buf rule, filter;
    iodfg_buf_init(&rule);
    iodfg_buf_init(&filter);
    int rc = -1;
    unsigned levels = iodfg_rules_path_levels(dir ? dir : "", plen) + 1;
    unsigned long same = 0;
    if (!dir || iodfg_rules_drilldown(callc, dir, levels, &rule, &filter)) {
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    } else if ((same = rule_line_of(app->rules, rule.data)) != 0) {
        iodfg_error_set(err, IODFG_E_ARG, "'%s' is drilled into already (rule %lu)",
                        tui_app_activity_name(app, a), same);
    } else if (iodfg_rules_insert_line(app->rules, 1, rule.data, err) == 0) {
        rc = 0;
        if (filter.len && iodfg_filter_stack_push_text(app->filters, filter.data, err)) {
            rc = -1;
        }
        if (rc == 0 && callc) {
            char cf[300];
            snprintf(cf, sizeof(cf), "call=%s", callc);
            iodfg_filter_stack_push_text(app->filters, cf, NULL);
        }
    }
    iodfg_buf_fini(&rule);
    iodfg_buf_fini(&filter);
    free(dir);
    free(callc);
    return rc;
}
