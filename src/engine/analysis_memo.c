/* SPDX-License-Identifier: MIT */
/* The memos of the current and the previous selection: their key sums (a rebuild for either
 * does not add them up again) and the results of the one left (a filter toggled back under the
 * same mapping takes them back without a rebuild). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/mapping.h"
#include "iodfg/stats.h"

#include "analysis_priv.h"

static int same_selection(const struct iodfg_selection *a, const struct iodfg_selection *b,
                          uint32_t ncases)
{
    return a->from_ns == b->from_ns && a->to_ns == b->to_ns && !a->per_pid == !b->per_pid &&
           !a->case_on == !b->case_on && (!a->case_on || !memcmp(a->case_on, b->case_on, ncases));
}

/* The memo of the current selection, or -1. */
static int memo_of_sel(const struct iodfg_analysis *an)
{
    for (int i = 0; i < 2; i++) {
        int m = (an->cur + i) % 2;
        if (an->memo[m].valid && same_selection(&an->memo[m].sel, &an->sel, an->ncases)) {
            return m;
        }
    }
    return -1;
}

/* Point an->sums at the memo of the current selection: 1 when its sums are known, 0 when they
 * are to be made (in the other memo when the current one is in use, the previous selection's
 * being dropped). */
int iodfg_memo_sums_recall(struct iodfg_analysis *an)
{
    int m = memo_of_sel(an);
    if (m >= 0) {
        an->cur = m;
        an->sums = an->memo[m].sums;
        return 1;
    }
    an->cur = an->memo[an->cur].valid ? !an->cur : an->cur;
    an->memo[an->cur].valid = 0;
    an->memo[an->cur].results = 0;
    an->sums = an->memo[an->cur].sums;
    return 0;
}

void iodfg_memo_results_swap(struct iodfg_analysis *an, struct iodfg_sums_memo *m)
{
    struct iodfg_dfg g = an->dfg;
    an->dfg = m->dfg;
    m->dfg = g;
    struct iodfg_stats st = an->stats;
    an->stats = m->stats;
    m->stats = st;
    struct iodfg_hstore hs = an->hs;
    an->hs = m->hs;
    m->hs = hs;
}

/* Before the selection changes: the results of the current one (its memo made, this log's)
 * go to its memo, to be taken back when the selection comes back. 1 when they went. */
int iodfg_memo_results_stash(struct iodfg_analysis *an)
{
    struct iodfg_sums_memo *m = &an->memo[an->cur];
    if (an->adopted || !m->valid || !same_selection(&m->sel, &an->sel, an->ncases)) {
        return 0;
    }
    iodfg_memo_results_swap(an, m);
    memcpy(m->act, an->act, (size_t)an->nkeys * sizeof(*m->act));
    m->nactivities = an->nactivities;
    m->results = 1;
    return 1;
}

/* The results of the new current selection when its memo holds them under the current
 * mapping: taken back (the selection bits made for it; the codes are made anew when next
 * needed). 1 when taken, 0 when they are to be computed. */
int iodfg_memo_results_recall(struct iodfg_analysis *an)
{
    int i = memo_of_sel(an);
    struct iodfg_sums_memo *m = i >= 0 ? &an->memo[i] : NULL;
    if (!m || !m->results || m->nactivities != an->nactivities ||
        memcmp(m->act, an->act, (size_t)an->nkeys * sizeof(*m->act))) {
        return 0;
    }
    an->cur = i;
    an->sums = m->sums;
    iodfg_memo_results_swap(an, m);
    m->results = 0;
    iodfg_stats_select_bits(an->bits, an->log, &an->sel);
    an->codes_valid = 0;
    memset(&an->last, 0, sizeof(an->last));
    an->last.full = 1;
    an->last.keys_changed = an->nkeys;
    an->last.activities_dirty = an->nactivities;
    return 1;
}

/* The current memo's sums were made for the current selection: keep a copy of it. */
void iodfg_memo_sums_remember(struct iodfg_analysis *an)
{
    struct iodfg_sums_memo *m = &an->memo[an->cur];
    uint8_t *on = NULL;
    if (an->sel.case_on) {
        on = realloc(m->case_on, an->ncases ? an->ncases : 1);
        if (!on) {
            return; // not remembered: made anew next time
        }
        memcpy(on, an->sel.case_on, an->ncases);
    } else {
        free(m->case_on);
    }
    m->case_on = on;
    m->sel = an->sel;
    m->sel.case_on = on;
    m->valid = 1;
}
