/* SPDX-License-Identifier: MIT */
/* Jumps from a finding to its evidence and back: Enter in the Insights view filters to the
 * evidence's cases (and time window for the Timeline), selects its activity, edge or case and
 * shows the view that proves it; Backspace there restores the session's inputs (as text, like
 * undo) and the selections as they were. A small stack, so that jumps nest. */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/filter.h"
#include "iodfg/format.h"
#include "iodfg/mapping.h"
#include "iodfg/session.h"

#include "tui/app.h"
#include "tui/listmodel.h"
#include "tui/views/graph/graph_view.h"
#include "tui/views/insights_view.h"
#include "tui/views/jumpstate.h"

enum tui_view tui_insights_target(const struct iodfg_insight *f)
{
    switch (f->rule) {
    case IODFG_INS_IMBALANCE:
    case IODFG_INS_STRAGGLER:
        return f->ncases ? TUI_VIEW_CASES : TUI_VIEW_COUNT;
    case IODFG_INS_RANDOM_ACCESS:
    case IODFG_INS_ACCESS_UNKNOWN:
    case IODFG_INS_REREAD:
        return TUI_VIEW_CHARZ;
    case IODFG_INS_SHARED_FILE:
    case IODFG_INS_STAIR_CASE:
    case IODFG_INS_BURSTY:
        if (f->has_window) {
            return TUI_VIEW_TIMELINE;
        }
        break;
    default:
        break;
    }
    if (f->subject_kind == IODFG_SUBJ_ACTIVITY || f->subject_kind == IODFG_SUBJ_EDGE || f->nact) {
        return TUI_VIEW_GRAPH;
    }
    return f->has_window ? TUI_VIEW_TIMELINE : f->ncases ? TUI_VIEW_CASES : TUI_VIEW_COUNT;
}

/* A case name a "name=a,b" list can hold as it is. */
static int plain_name(const char *s)
{
    for (; *s; s++) {
        if (*s == ',' || isspace((unsigned char)*s) || iscntrl((unsigned char)*s)) {
            return 0;
        }
    }
    return 1;
}

/* The filters of the evidence, one a line, into out: the run whose cases were compared, else
 * its cases when they are all named and fewer than the selected ones (not for the Cases view,
 * which compares them with the rest), and its window for the Timeline. Returns what was left
 * out ("" for nothing). */
static const char *evidence_filters(struct tui_app *app, const struct tui_ins_row *row,
                                    enum tui_view v, struct iodfg_buf *out)
{
    const struct iodfg_insight *f = row->f;
    const struct iodfg_session *ses = tui_app_session(app);
    const char *left = "";
    if (f->subject_kind == IODFG_SUBJ_RUN) {
        char run[256];
        iodfg_insight_subject_text(row->set, iodfg_session_mapping(ses), f, run, sizeof(run));
        if (run[0] && plain_name(run)) {
            iodfg_buf_addf(out, "cid=%s\n", run);
        }
    }
    if (v != TUI_VIEW_CASES && f->ncases && f->ncases == f->cases_total &&
        f->ncases < iodfg_session_counts(ses)->cases_selected) {
        int ok = 1;
        for (uint32_t i = 0; i < f->ncases; i++) {
            ok = ok && plain_name(tui_app_case_name(app, f->cases[i]));
        }
        if (ok) {
            for (uint32_t i = 0; i < f->ncases; i++) {
                iodfg_buf_addf(out, "%s%s", i ? "," : "name=", tui_app_case_name(app, f->cases[i]));
            }
            iodfg_buf_add(out, "\n", 1);
        } else {
            left = " (case names too odd for a filter: cases not filtered)";
        }
    }
    if (v == TUI_VIEW_TIMELINE && f->has_window && f->from_ns >= 0) {
        // on the log's clock in the form every output shows (the filter reads it back)
        char a[80], z[80];
        iodfg_buf_addf(out, "time=%s..%s\n",
                       iodfg_format_clock(a, sizeof(a), f->clock, f->from_ns, 9),
                       iodfg_format_clock(z, sizeof(z), f->clock, f->to_ns + 1, 9)); // [from, to)
    }
    return left;
}

/* Put the cursor of v's table on key; 1 when it is there. */
static int select_key(struct tui_app *app, enum tui_view v, unsigned long long key)
{
    struct tui_listmodel *lm = tui_app_view_table(app, v);
    int have = 0;
    if (!lm || tui_listmodel_reload_at(lm, 1, key)) {
        return 0;
    }
    return tui_listmodel_cursor_key(lm, &have) == key && have;
}

static int select_activity(struct tui_app *app, uint32_t a)
{
    int ok = a < iodfg_session_mapping(tui_app_session(app))->nactivities &&
             select_key(app, TUI_VIEW_ACTIVITIES, a);
    if (ok) {
        tui_app_activity_moved(app);
    }
    return ok;
}

static int remember(struct tui_app *app, struct tui_insights_view *iv)
{
    char *state = tui_jump_state(app);
    if (!state) {
        return -1;
    }
    if (iv->njumps == TUI_INS_JUMPS) { // the oldest goes
        free(iv->jumps[0].state);
        memmove(&iv->jumps[0], &iv->jumps[1], (TUI_INS_JUMPS - 1) * sizeof(iv->jumps[0]));
        iv->njumps--;
    }
    struct tui_ins_jump *j = &iv->jumps[iv->njumps++];
    j->state = state;
    j->view = tui_app_current_view(app);
    j->ins_key = tui_listmodel_cursor_key(iv->table.lm, &j->have_ins);
    j->act_key =
        tui_listmodel_cursor_key(tui_app_view_table(app, TUI_VIEW_ACTIVITIES), &j->have_act);
    return 0;
}

/* Select what the finding is about in view v; "" or why it could not. */
static const char *select_evidence(struct tui_app *app, const struct iodfg_insight *f,
                                   enum tui_view v)
{
    if (v == TUI_VIEW_CASES) {
        return select_key(app, TUI_VIEW_CASES, f->cases[0]) ? "" : " (its case is not listed)";
    }
    int subj = f->subject_kind == IODFG_SUBJ_ACTIVITY || f->subject_kind == IODFG_SUBJ_EDGE;
    uint32_t a = subj ? f->subject : f->nact ? f->act[0] : UINT32_MAX;
    if (a == UINT32_MAX) {
        return "";
    }
    if (!select_activity(app, a)) {
        return " (its activity is not shown: pruned or filtered)";
    }
    return "";
}

unsigned tui_insights_jump(struct tui_app *app, struct tui_insights_view *iv,
                           const struct tui_ins_row *row)
{
    const struct iodfg_insight f = *row->f; // the findings are judged again by the rebuild
    enum tui_view v = tui_insights_target(&f);
    if (v == TUI_VIEW_COUNT) {
        tui_app_set_message(app, 0, "jump: this finding names no activity, case or window");
        return TUI_REDRAW;
    }
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_buf filters;
    iodfg_buf_init(&filters);
    const char *left = evidence_filters(app, row, v, &filters);
    if (filters.failed || remember(app, iv)) {
        iodfg_buf_fini(&filters);
        tui_app_set_message(app, 1, "jump: out of memory");
        return TUI_REDRAW;
    }
    if (filters.len) { // the evidence is selected in the new results: they are needed now
        if (tui_jump_push_filters(app, filters.data, &err) || tui_app_rebuild(app, &err)) {
            tui_app_report(app, "jump", &err);
            iodfg_buf_fini(&filters);
            tui_insights_back(app, iv);
            return TUI_REDRAW;
        }
        tui_app_record(app);
    }
    const char *why = select_evidence(app, &f, v);
    tui_app_show(app, v);
    if (v == TUI_VIEW_GRAPH && f.subject_kind == IODFG_SUBJ_EDGE && !*why) {
        tui_graph_view_select_edge(app, f.subject, f.subject2);
    }
    const char *fl = filters.data ? filters.data : "";
    int by_cases = strncmp(fl, "name=", 5) == 0, by_time = strstr(fl, "time=") != NULL;
    char shown[320] = "no filter";
    if (strncmp(fl, "cid=", 4) == 0) {
        snprintf(shown, sizeof(shown), "filtered to run %.*s", (int)strcspn(fl + 4, "\n"), fl + 4);
    } else if (by_cases || by_time) {
        snprintf(shown, sizeof(shown), "filtered to %s%u case(s)%s", by_cases ? "" : "all ",
                 by_cases ? f.ncases : iodfg_session_counts(tui_app_session(app))->cases_selected,
                 by_time ? " in its time window" : "");
    }
    tui_app_set_message(app, 0, "%s: %s%s%s (Backspace comes back)",
                        iodfg_insight_rule_name(f.rule), shown, why, left);
    iodfg_buf_fini(&filters);
    return TUI_REDRAW;
}

int tui_insights_back(struct tui_app *app, struct tui_insights_view *iv)
{
    if (!iv || iv->njumps == 0) {
        return 0;
    }
    struct tui_ins_jump j = iv->jumps[--iv->njumps];
    int rc = tui_jump_restore(app, j.state);
    free(j.state);
    if (rc) {
        return -1;
    }
    if (j.have_act) {
        select_activity(app, (uint32_t)j.act_key);
    }
    tui_app_show(app, j.view);
    if (j.have_ins) {
        select_key(app, TUI_VIEW_INSIGHTS, j.ins_key);
    }
    tui_app_set_message(app, 0, "back: filters and selection as before the jump");
    return 1;
}

void tui_insights_jumps_free(struct tui_insights_view *iv)
{
    for (size_t i = 0; i < iv->njumps; i++) {
        free(iv->jumps[i].state);
    }
    iv->njumps = 0;
}
