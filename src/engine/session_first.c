/* SPDX-License-Identifier: MIT */
/* A rule edit's first tier: when only the mapping changed, the activities' additive statistics
 * come from the key sums and, under a total mapping, the DFG's edge counts from the key pairs
 * (keypairs.c), so that the counts a front-end shows at once are exact whatever the number of
 * events; the full rebuild (the second tier) then brings what needs the events. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/analysis.h"
#include "iodfg/dfg.h"
#include "iodfg/error.h"
#include "iodfg/session.h"
#include "iodfg/stats.h"

#include "dfg_priv.h"
#include "keypairs.h"
#include "session_priv.h"

struct session_first {
    int pending;
    uint64_t serial; /* session_first_serial */
    struct iodfg_dfg g;
    struct iodfg_stats st;
    struct session_masks m;
    struct iodfg_session_first out;
};

void session_first_drop(struct iodfg_session *s)
{
    if (s->first) {
        s->first->pending = 0;
        s->first->serial++;
    }
}

uint64_t session_first_serial(const struct iodfg_session *s)
{
    return s->first ? s->first->serial : 0;
}

void session_first_free(struct iodfg_session *s)
{
    struct session_first *f = s->first;
    if (f) {
        iodfg_dfg_fini(&f->g);
        iodfg_stats_fini(&f->st);
        free(f->m.node_on);
        free(f->m.edge_on);
        free(f);
        s->first = NULL;
    }
}

/* Whether the shown activities depend on the edges: a threshold, minedge or top filter. */
static int prunes(const struct iodfg_session *s)
{
    int path_pct, act_pct;
    iodfg_session_thresholds(s, &path_pct, &act_pct);
    return path_pct < 100 || act_pct < 100 || s->fres.min_edge > 0 || s->fres.top > 0;
}

/* Without the edges and without pruning, an activity is shown when it has events (each lies on
 * a trace from ● to ■, all of whose edges are shown). */
static int shown_by_count(struct session_first *f, struct iodfg_session_counts *k)
{
    uint32_t n = f->st.nactivities;
    if (n + 1 > f->m.node_cap) {
        uint8_t *p = realloc(f->m.node_on, (size_t)n + 1);
        if (!p) {
            return -1;
        }
        f->m.node_on = p;
        f->m.node_cap = (size_t)n + 1;
    }
    k->activities = k->activities_shown = 0;
    k->events_shown = 0;
    for (uint32_t a = 0; a < n; a++) {
        uint64_t c = f->st.act[a].count;
        f->m.node_on[a] = c > 0;
        k->activities += c > 0;
        k->activities_shown += c > 0;
        k->events_shown += c;
    }
    return 0;
}

/* The first tier of the prepared inputs. 1 when pending, 0 when the session cannot (a full
 * rebuild is due), -1 with err. */
static int compute(struct iodfg_session *s, struct session_first *f, double t0,
                   struct iodfg_error *err)
{
    int total = 0;
    int rc = iodfg_analysis_first_tier(s->an, &s->map, &f->st, &f->g, &total, err);
    if (rc) {
        return rc < 0 ? -1 : 0;
    }
    if (!total && prunes(s)) { // the shown activities would need the edges
        return 0;
    }
    struct iodfg_session_counts *k = &f->out.counts;
    *k = s->counts;
    if (total                  ? session_prune_into(s, &f->g, &f->st, &f->m, k, err)
        : shown_by_count(f, k) ? iodfg_error_set(err, IODFG_E_NOMEM, NULL)
                               : 0) {
        return -1;
    }
    session_count_keys(s, k);
    session_focus_count(s); // what the focus folds: from the mapping and the key events
    memset(&k->change, 0, sizeof(k->change));
    k->change.mapping = 1;
    f->out.stats = &f->st;
    f->out.dfg = total ? &f->g : NULL;
    f->out.node_on = f->m.node_on;
    k->rebuild_ms = session_now_ms() - t0;
    f->pending = 1;
    f->serial++;
    return 1;
}

int iodfg_session_rebuild_first(struct iodfg_session *s, struct iodfg_error *err)
{
    double t0 = session_now_ms();
    session_first_drop(s);
    if (!s->an || !s->built || s->job) {
        return iodfg_session_rebuild(s, err);
    }
    if (session_prepare(s, err)) {
        return -1;
    }
    const struct iodfg_session_change *ch = &s->pending;
    if (!ch->mapping || ch->selection || ch->groups || ch->pruning) {
        return iodfg_session_rebuild(s, err);
    }
    if (!s->first && !(s->first = calloc(1, sizeof(*s->first)))) { // zeroed: empty g and st
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    if (s->on_recompute) { // the results are about to change
        s->on_recompute(s->on_recompute_ctx);
    }
    int rc = compute(s, s->first, t0, err);
    if (rc == 0) {
        return iodfg_session_rebuild(s, err);
    }
    return rc;
}

const struct iodfg_session_first *iodfg_session_first(const struct iodfg_session *s)
{
    return s->first && s->first->pending ? &s->first->out : NULL;
}
