/* SPDX-License-Identifier: MIT */
/* A rule edit's second tier computed on another thread: its inputs are copied when it starts,
 * it reads only what never changes of the session, and its results are taken on the owner's
 * thread only while they still belong to the pending first tier (else they are dropped and the
 * published results stay), so that a front-end stays live and can edit again meanwhile. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/analysis.h"
#include "iodfg/error.h"
#include "iodfg/session.h"

#include "analysis_priv.h"
#include "session_priv.h"

struct iodfg_session_second {
    const struct iodfg_analysis *an; /* read only where it never changes */
    uint64_t serial;                 /* the first tier it belongs to */
    uint32_t *act, nact;             /* the pending mapping */
    struct iodfg_selection sel;      /* the analysis' selection, case_on its own copy */
    uint8_t *case_on;
    struct iodfg_key_sums *sums;
    int sums_known;
    int computed;
    double ms;
    struct iodfg_sums_memo r; /* its dfg, stats and hs: the results */
};

void iodfg_session_second_free(struct iodfg_session_second *t)
{
    if (t) {
        iodfg_dfg_fini(&t->r.dfg);
        iodfg_stats_fini(&t->r.stats);
        iodfg_hstore_fini(&t->r.hs);
        free(t->act);
        free(t->case_on);
        free(t->sums);
        free(t);
    }
}

struct iodfg_session_second *iodfg_session_second_new(const struct iodfg_session *s,
                                                      struct iodfg_error *err)
{
    if (!iodfg_session_first(s)) {
        return NULL;
    }
    const struct iodfg_analysis *an = s->an;
    struct iodfg_session_second *t = calloc(1, sizeof(*t));
    if (!t || !(t->act = malloc(((size_t)an->nkeys + 1) * sizeof(*t->act))) ||
        !(t->sums = malloc(((size_t)an->nkeys + 1) * sizeof(*t->sums)))) {
        iodfg_session_second_free(t);
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        return NULL;
    }
    iodfg_hstore_init(&t->r.hs);
    t->an = an;
    t->serial = session_first_serial(s);
    memcpy(t->act, s->map.activity_of_key, (size_t)an->nkeys * sizeof(*t->act));
    t->nact = s->map.nactivities;
    t->sel = an->sel;
    if (an->sel.case_on) {
        if (!(t->case_on = malloc((size_t)an->ncases + 1))) {
            iodfg_session_second_free(t);
            iodfg_error_set(err, IODFG_E_NOMEM, NULL);
            return NULL;
        }
        memcpy(t->case_on, an->sel.case_on, an->ncases);
        t->sel.case_on = t->case_on;
    }
    // the selection's sums, as the rebuild would recall them (they do not depend on the mapping)
    t->sums_known = an->memo[an->cur].valid && an->sums == an->memo[an->cur].sums;
    if (t->sums_known) {
        memcpy(t->sums, an->sums, (size_t)an->nkeys * sizeof(*t->sums));
    }
    return t;
}

int iodfg_session_second_compute(struct iodfg_session_second *t, struct iodfg_error *err)
{
    double t0 = session_now_ms();
    int rc = iodfg_analysis_compute_act(t->an, &t->sel, t->act, t->nact, t->sums, t->sums_known,
                                        &t->r.dfg, &t->r.stats, &t->r.hs, err);
    t->computed = rc == 0;
    t->ms = session_now_ms() - t0;
    return rc;
}

double iodfg_session_second_ms(const struct iodfg_session_second *t)
{
    return t->ms;
}

int iodfg_session_second_take(struct iodfg_session *s, struct iodfg_session_second *t,
                              struct iodfg_error *err)
{
    if (!t->computed || !iodfg_session_first(s) || session_first_serial(s) != t->serial ||
        t->an != s->an) {
        return 0; // another edit or rebuild came since: the published results stay
    }
    double t0 = session_now_ms() - t->ms; // its rebuild time: the computation and this
    session_first_drop(s);
    struct iodfg_session_change ch = s->pending;
    iodfg_analysis_take(s->an, t->act, t->nact, &t->r);
    if (session_finish(s, ch, t0, err)) {
        s->built = 0;
        return -1;
    }
    return 1;
}
