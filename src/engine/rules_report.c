/* SPDX-License-Identifier: MIT */
/* What the rules report says per rule beyond the apply (the events each rule decided), and the
 * match-limited search patterns the front-ends use (rules.h): both over the rules' PCRE2 code. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"
#include "iodfg/rules.h"

#include "rules_priv.h"

void iodfg_rules_report_events(const struct iodfg_rules_report *r,
                               uint64_t (*key_events)(const void *ctx, uint32_t key),
                               const void *ctx, uint64_t *events)
{
    for (uint32_t i = 0; i < r->nrule_keys; i++) {
        events[i] = 0;
    }
    for (uint32_t k = 0; k < r->nkey_rule; k++) {
        uint32_t d = r->key_rule[k];
        if (d < r->nrule_keys) {
            events[d] += key_events(ctx, k);
        }
    }
}

struct iodfg_rules_pattern {
    struct rx *rx;
    struct rx_scratch *ms;
};

struct iodfg_rules_pattern *iodfg_rules_pattern_new(const char *pat, size_t len, int caseless,
                                                    struct iodfg_error *err)
{
    struct iodfg_rules_pattern *p = calloc(1, sizeof(*p));
    char *text = malloc(len + 5);
    if (!p || !text) {
        free(p);
        free(text);
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        return NULL;
    }
    size_t pre = caseless ? 4 : 0;
    memcpy(text, "(?i)", pre);
    memcpy(text + pre, pat, len);
    size_t off;
    int nomem;
    char msg[200];
    p->rx = rx_compile(text, len + pre, &off, msg, sizeof(msg), &nomem);
    free(text);
    if (!p->rx) {
        free(p);
        iodfg_error_set(err, nomem ? IODFG_E_NOMEM : IODFG_E_REGEX, "%s",
                        nomem ? "out of memory" : msg);
        iodfg_error_at(err, NULL, 1, (off > pre ? off - pre : 0) + 1);
        return NULL;
    }
    p->ms = rx_scratch_new(1, rx_groups(p->rx), RX_DEFAULT_MATCH_LIMIT, RX_DEFAULT_DEPTH_LIMIT);
    if (!p->ms) {
        iodfg_rules_pattern_free(p);
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        return NULL;
    }
    return p;
}

void iodfg_rules_pattern_free(struct iodfg_rules_pattern *p)
{
    if (p) {
        rx_scratch_free(p->ms);
        rx_free(p->rx);
        free(p);
    }
}

int iodfg_rules_pattern_match(struct iodfg_rules_pattern *p, const char *s, size_t len)
{
    int rc = rx_match(p->rx, s, len, p->ms, 0);
    return rc == 1 ? 1 : rc == 0 ? 0 : -1;
}
