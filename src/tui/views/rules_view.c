/* SPDX-License-Identifier: MIT */
/* The Rules view (7): the mapping rules, one line each, edited live (every change recompiles
 * the edited line of the session's rules and answers TUI_REBUILD, so the app rebuilds once and
 * tells the views; a bad regex keeps the last valid rules, with a caret under the error), added,
 * deleted, moved and saved. */
#include "config.h"

#include "tui/views/rules_view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/analysis.h"
#include "iodfg/error.h"
#include "iodfg/glyph.h"
#include "iodfg/rules.h"
#include "iodfg/session.h"

#include "tui/app.h"
#include "tui/theme.h"
#include "tui/view.h"
#include "tui/viewmodel.h"

/* The session's rules, which the view edits in place (the rebuild notices every change). */
static struct iodfg_rules *rules_of(const struct tui_app *app)
{
    return iodfg_session_rules(tui_app_session(app));
}

static void *open_rules(struct tui_app *app)
{
    (void)app;
    struct tui_rules_view *rv = calloc(1, sizeof(*rv));
    if (rv) {
        rv->cursor = 1;
    }
    return rv;
}

static void close_rules(struct tui_app *app, void *st)
{
    (void)app;
    struct tui_rules_view *rv = st;
    free(rv->edit_orig);
    free(rv->events);
    free(rv);
}

/* ---- commands ---- */

static unsigned move(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    struct tui_rules_view *rv = st;
    long v = (long)rv->cursor + tui_cmd_step(cmd);
    long max = (long)iodfg_rules_line_count(rules_of(app));
    rv->cursor = (unsigned long)(v < 1 ? 1 : v > max ? (max < 1 ? 1 : max) : v);
    return TUI_REDRAW;
}

/* The line of the first catch-all rule (a rule without conditions: it takes every key that
 * reaches it), 0 when none. */
static unsigned long catch_all(const struct iodfg_rules *rules)
{
    const struct iodfg_rule_info *ri;
    for (size_t i = 0; (ri = iodfg_rules_get(rules, i)); i++) {
        if (ri->ncond == 0) {
            return ri->line;
        }
    }
    return 0;
}

/* a: a new line below the cursor, but above a catch-all rule, below which it would never
 * match. */
static unsigned add(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)cmd;
    struct tui_rules_view *rv = st;
    struct iodfg_error err;
    iodfg_error_clear(&err);
    unsigned long n = iodfg_rules_line_count(rules_of(app)), cur = rv->cursor;
    unsigned long at = n == 0 ? 1 : (cur < n ? cur + 1 : n + 1);
    unsigned long all = catch_all(rules_of(app));
    if (all && all < at) {
        at = all;
        tui_app_set_message(app, 0,
                            "added above the catch-all rule on line %lu (below it a rule never "
                            "matches)",
                            all);
    }
    if (iodfg_rules_insert_line(rules_of(app), at, "", &err)) {
        tui_app_report(app, "add", &err);
        return TUI_REDRAW;
    }
    rv->cursor = rv->edit_line = at;
    free(rv->edit_orig);
    rv->edit_orig = NULL;
    rv->error[0] = '\0';
    return tui_app_ask(app, TUI_PROMPT_RULE, "add rule", "");
}

static unsigned edit(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    struct tui_rules_view *rv = st;
    if (iodfg_rules_line_count(rules_of(app)) == 0) {
        return add(app, st, cmd);
    }
    rv->edit_line = rv->cursor;
    free(rv->edit_orig);
    rv->edit_orig = strdup(iodfg_rules_line(rules_of(app), rv->cursor));
    rv->error[0] = '\0';
    return tui_app_ask(app, TUI_PROMPT_RULE, "edit rule", rv->edit_orig);
}

/* Delete (cmd RULE_DELETE) or move the line under the cursor, then rebuild. */
static unsigned change(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    struct tui_rules_view *rv = st;
    struct iodfg_error err;
    iodfg_error_clear(&err);
    unsigned long n = iodfg_rules_line_count(rules_of(app)), cur = rv->cursor;
    int rc;
    if (cmd == TUI_CMD_RULE_DELETE) {
        if (n == 0) {
            return TUI_REDRAW;
        }
        rc = iodfg_rules_delete_line(rules_of(app), cur, &err);
        rv->cursor = cur > 1 && cur >= n ? cur - 1 : cur;
    } else {
        unsigned long to = cmd == TUI_CMD_RULE_MOVE_UP ? cur - 1 : cur + 1;
        if (to < 1 || to > n) {
            return TUI_REDRAW;
        }
        rc = iodfg_rules_move_line(rules_of(app), cur, to, &err);
        if (rc == 0) {
            rv->cursor = to;
        }
    }
    if (rc) {
        tui_app_report(app, "rules", &err);
        return TUI_REDRAW;
    }
    return TUI_CHANGED;
}

static unsigned save(struct tui_app *app, void *st, enum tui_cmd cmd)
{
    (void)st;
    (void)cmd;
    const char *path = tui_app_rules_path(app);
    return tui_app_ask(app, TUI_PROMPT_SAVE_RULES, "save rules to", path ? path : "iodfg.rules");
}

static const struct tui_cmd_entry cmds[] = {
    {TUI_CMD_MOVE_UP, move},        {TUI_CMD_MOVE_DOWN, move},        {TUI_CMD_PAGE_UP, move},
    {TUI_CMD_PAGE_DOWN, move},      {TUI_CMD_MOVE_FIRST, move},       {TUI_CMD_MOVE_LAST, move},
    {TUI_CMD_RULE_ADD, add},        {TUI_CMD_RULE_EDIT, edit},        {TUI_CMD_RULE_DELETE, change},
    {TUI_CMD_RULE_MOVE_UP, change}, {TUI_CMD_RULE_MOVE_DOWN, change}, {TUI_CMD_RULE_SAVE, save},
};

/* ---- the live edit ---- */

/* Compile text into line of the session's rules: TUI_REBUILD when it is valid, else keep the
 * error and its column (the last valid rules stay in force). */
static unsigned rule_live(struct tui_app *app, struct tui_rules_view *rv, unsigned long line,
                          const char *text)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    if (iodfg_rules_set_line(rules_of(app), line, text, &err)) {
        snprintf(rv->error, sizeof(rv->error), "%s", err.msg);
        rv->error_col = err.col;
        return TUI_REDRAW;
    }
    rv->error[0] = '\0';
    rv->error_col = 0;
    return TUI_REDRAW | TUI_REBUILD;
}

/* Enter keeps the last valid text (and records it for undo), Esc (text NULL) restores the
 * line as it was before the edit. */
static unsigned rule_done(struct tui_app *app, struct tui_rules_view *rv, const char *text)
{
    struct iodfg_rules *rules = rules_of(app);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    unsigned long line = rv->edit_line;
    rv->edit_line = 0;
    if (!text) {
        if (rv->edit_orig) {
            iodfg_rules_set_line(rules, line, rv->edit_orig, &err);
        } else {
            iodfg_rules_delete_line(rules, line, &err);
        }
        rv->error[0] = '\0';
        return TUI_REDRAW | TUI_REBUILD;
    }
    unsigned r = rule_live(app, rv, line, text);
    if (rv->error[0]) {
        tui_app_set_message(app, 1, "rule %lu invalid (%s): the last valid text stays", line,
                            rv->error);
        rv->error[0] = '\0';
    }
    return r | TUI_RECORD;
}

static unsigned prompt(struct tui_app *app, void *st, const char *text, int done)
{
    struct tui_rules_view *rv = st;
    return done ? rule_done(app, rv, text) : rule_live(app, rv, rv->edit_line, text);
}

/* ---- the view model ---- */

#define STATS_W 24 /* the keys and events column */

static uint64_t key_events(const void *ses, uint32_t k)
{
    return iodfg_session_key_events(ses, k);
}

/* The rules report of the rules in force when it describes them (NULL otherwise: the default
 * f-hat, or an edit not rebuilt yet), with each rule's events summed once per generation. */
static const struct iodfg_rules_report *report_of(struct tui_app *app, struct tui_rules_view *rv)
{
    const struct iodfg_session *ses = tui_app_session(app);
    const struct iodfg_rules_report *rep = iodfg_session_rules_report(ses);
    size_t nrules = iodfg_rules_count(rules_of(app));
    if (!rep || !iodfg_session_analysis(ses) || rep->nrule_keys != nrules || nrules == 0 ||
        rep->nkey_rule == 0) {
        return NULL;
    }
    uint64_t rgen = iodfg_rules_generation(rules_of(app));
    if (rv->events_stamp != tui_app_generation(app) + 1 || rv->events_rules != rgen ||
        rv->nevents != nrules) {
        uint64_t *ev = realloc(rv->events, nrules * sizeof(*ev));
        if (!ev) {
            return NULL;
        }
        rv->events = ev;
        rv->nevents = nrules;
        iodfg_rules_report_events(rep, key_events, ses, ev);
        rv->events_stamp = tui_app_generation(app) + 1;
        rv->events_rules = rgen;
    }
    return rep;
}

/* What rule line l maps ("12 keys  3456 ev"), or why it maps nothing ("shadowed by rule 2":
 * an earlier rule takes every key it matches); "" for a comment or without a report. The
 * style: a warning for a shadowed rule. */
static int line_stats(struct tui_app *app, const struct tui_rules_view *rv,
                      const struct iodfg_rules_report *rep, unsigned long l, char *buf, size_t size)
{
    buf[0] = '\0';
    const struct iodfg_rules *rules = rules_of(app);
    const struct iodfg_rule_info *ri;
    for (size_t i = 0; rep && (ri = iodfg_rules_get(rules, i)); i++) {
        if (ri->line != l) {
            continue;
        }
        uint32_t sh = rep->rule_shadow[i];
        if (rep->rule_keys[i] == 0 && sh != IODFG_RULE_NONE && iodfg_rules_get(rules, sh)) {
            snprintf(buf, size, "shadowed by rule %lu", iodfg_rules_get(rules, sh)->line);
            return TUI_STYLE_WARNING;
        }
        if (rep->rule_keys[i] == 0) {
            snprintf(buf, size, "matches no key");
            return TUI_STYLE_DIM;
        }
        snprintf(buf, size, "%u key%s %8llu ev", rep->rule_keys[i],
                 rep->rule_keys[i] == 1 ? " " : "s", (unsigned long long)rv->events[i]);
        return TUI_STYLE_DIM;
    }
    return TUI_STYLE_DIM;
}

/* Line l at row y: its number (the cursor marked), its text (the edit's while edited) and,
 * under an edited line with an error, a caret at the error's column. Returns the next row. */
static int render_line(struct tui_app *app, const struct tui_rules_view *rv,
                       const struct iodfg_rules_report *rep, const struct tui_render_in *in,
                       const char *edit, unsigned long l, int y, struct tui_viewmodel *vm)
{
    struct tui_page *pg = &vm->page;
    int w = in->width, editing = edit && l == rv->edit_line, cur = l == rv->cursor;
    const char *text = editing ? edit : iodfg_rules_line(rules_of(app), l);
    int style = cur ? TUI_STYLE_CURSOR : text[0] == '#' ? TUI_STYLE_DIM : TUI_STYLE_NORMAL;
    style = editing ? TUI_STYLE_INPUT : style;
    tui_page_fill(pg, y, 0, w, style);
    if (cur) {
        tui_page_glyph(pg, y, 0, style, TUI_G_CURSOR);
        tui_page_textf(pg, y, 1, 4, style, "%3lu", l);
    } else {
        tui_page_textf(pg, y, 0, 5, style, " %3lu", l);
    }
    char stats[64];
    int ss = line_stats(app, rv, editing ? NULL : rep, l, stats, sizeof(stats));
    int sw = stats[0] && w > 60 ? STATS_W : 0;
    tui_page_text(pg, y, 6, w - 7 - sw, style, text);
    if (sw) {
        tui_page_right(pg, y, w - 1 - sw, sw, cur ? style : ss, stats);
    }
    if (editing) {
        vm->cursor_row = y;
        vm->cursor_col = 6 + in->edit_col;
        if (rv->error[0] && y + 1 < in->height) {
            y++;
            int x = 6 + (rv->error_col ? (int)rv->error_col - 1 : 0);
            x = x > w - 10 ? w - 10 : x;
            tui_page_textf(pg, y, x, w - x, TUI_STYLE_CARET, "^ %s", rv->error);
        }
    }
    return y + 1;
}

/* While a line is edited, the status line says whether the edit is in force. */
static void edit_status(struct tui_app *app, const struct tui_rules_view *rv,
                        struct tui_viewmodel *vm)
{
    char st[512];
    tui_app_status(app, st, sizeof(st));
    if (rv->error[0]) {
        snprintf(vm->status, sizeof(vm->status),
                 iodfg_glyph_text("rule %lu invalid — last valid rules in force · %s"),
                 rv->edit_line, st);
    } else {
        snprintf(vm->status, sizeof(vm->status),
                 iodfg_glyph_text("editing rule %lu (Enter keeps, Esc reverts) · %s"),
                 rv->edit_line, st);
    }
    vm->status_style = rv->error[0] ? TUI_STYLE_ERROR : TUI_STYLE_STATUS;
}

static void render(struct tui_app *app, void *st, const struct tui_render_in *in,
                   struct tui_viewmodel *vm)
{
    struct tui_rules_view *rv = st;
    int editing = tui_app_open_prompt(app, NULL) == TUI_PROMPT_RULE;
    const char *edit = editing ? in->edit_text : NULL;
    unsigned long n = iodfg_rules_line_count(rules_of(app));
    const struct iodfg_rules_report *rep = report_of(app, rv);
    tui_page_fill(&vm->page, 0, 0, in->width, TUI_STYLE_HEADER);
    tui_page_text(&vm->page, 0, 1, in->width - 2, TUI_STYLE_HEADER, "  #  rule (first match wins)");
    if (rep && in->width > 60) {
        tui_page_right(&vm->page, 0, in->width - 1 - STATS_W, STATS_W, TUI_STYLE_HEADER,
                       "maps: keys   events");
    }
    int rows = in->height - 1;
    unsigned long cur = rv->cursor;
    unsigned long top = cur > (unsigned long)(rows - 3) ? cur - (unsigned long)(rows - 3) : 1;
    int y = 1;
    for (unsigned long l = top; l <= n && y < in->height; l++) {
        y = render_line(app, rv, rep, in, edit, l, y, vm);
    }
    if (y < in->height) {
        tui_page_text(&vm->page, y, 6, in->width - 7, TUI_STYLE_DIM,
                      n ? "(an event no rule matches is left out)" : "(no rules: a adds one)");
    }
    if (editing) {
        edit_status(app, rv, vm);
    }
}

static size_t detail(struct tui_app *app, void *st, char *buf, size_t size)
{
    (void)app;
    (void)st;
    snprintf(buf, size,
             iodfg_glyph_text("a add · e edit · d delete · J/K move · w save · P preset · u undo "
                              "· ? keys"));
    return 0;
}

const struct tui_view_ops tui_view_rules = {
    .open = open_rules,
    .close = close_rules,
    .cmds = cmds,
    .ncmds = sizeof(cmds) / sizeof(cmds[0]),
    .prompt = prompt,
    .render = render,
    .detail = detail,
};
