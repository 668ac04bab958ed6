/* SPDX-License-Identifier: MIT */
/* The command line (`:`): any command of commands.def by its name, with Tab completion and
 * its help shown while it is typed; a command that asks for something (a filter, a file name,
 * a pattern, a rule, a preset) takes the rest of the line as the answer: `:export-dot g.dot`,
 * `:filter path~^/p/`, `:preset hpc`. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "iodfg/glyph.h"
#include "iodfg/rules.h"

#include "tui/app.h"
#include "tui/app_priv.h"
#include "tui/command.h"
#include "tui/view.h"

/* Commands that open a prompt, what its answer is: the argument they take. */
static const struct {
    enum tui_cmd cmd;
    const char *what;
} takes_arg[] = {
    {TUI_CMD_ADD_FILTER, "FILTER (path~RE call=a,b cid=X time=A..B)"},
    {TUI_CMD_SEARCH, "PATTERN (a regex)"},
    {TUI_CMD_GROUP_G_MATCH, "PATTERN (regex on the case name, or cid=X)"},
    {TUI_CMD_GROUP_R_MATCH, "PATTERN (regex on the case name, or cid=X)"},
    {TUI_CMD_EXPORT_DOT, "FILE"},
    {TUI_CMD_EXPORT_TSV, "FILE"},
    {TUI_CMD_RULE_SAVE, "FILE"},
    {TUI_CMD_RULE_PRESET, "NAME"},
    {TUI_CMD_RULE_ADD, "RULE"},
    {TUI_CMD_RULE_EDIT, "RULE"},
    {TUI_CMD_QUIT, "y (quit) or w (save the rules and quit)"},
    {TUI_CMD_FOCUS, "app or all (none: the other)"},
};

/* Short names for the commands typed most. */
static const struct {
    const char *name;
    enum tui_cmd cmd;
} aliases[] = {
    {"filter", TUI_CMD_ADD_FILTER},
    {"preset", TUI_CMD_RULE_PRESET},
    {"q", TUI_CMD_QUIT},
};
#define NALIASES (sizeof(aliases) / sizeof(aliases[0]))

/* Every name the line accepts, in order: the commands (not "none" nor "command"), then the
 * aliases; -1 past the last. */
static const char *name_at(int i, enum tui_cmd *cmd)
{
    int n = TUI_CMD_COUNT - 2;
    if (i < 0) {
        return NULL;
    }
    if (i < n) {
        enum tui_cmd c = (enum tui_cmd)(i + 1); // skips NONE
        c = c >= TUI_CMD_COMMAND_LINE ? (enum tui_cmd)(c + 1) : c;
        *cmd = c;
        return tui_cmd_info(c)->name;
    }
    if ((size_t)(i - n) < NALIASES) {
        *cmd = aliases[i - n].cmd;
        return aliases[i - n].name;
    }
    return NULL;
}

static const char *arg_of(enum tui_cmd cmd)
{
    for (size_t i = 0; i < sizeof(takes_arg) / sizeof(takes_arg[0]); i++) {
        if (takes_arg[i].cmd == cmd) {
            return takes_arg[i].what;
        }
    }
    return NULL;
}

/* The command called word[0..n): an exact name or alias, else the one name it starts. 1 with
 * *cmd; 0 when none; -1 when several start so (ambiguous). */
static int lookup(const char *word, size_t n, enum tui_cmd *cmd)
{
    enum tui_cmd c;
    const char *name;
    int found = 0;
    for (int i = 0; (name = name_at(i, &c)); i++) {
        if (strlen(name) == n && memcmp(name, word, n) == 0) {
            *cmd = c;
            return 1;
        }
    }
    for (int i = 0; (name = name_at(i, &c)); i++) {
        if (strncmp(name, word, n) == 0) {
            found = found ? -1 : 1;
            *cmd = c;
        }
    }
    return found;
}

/* The line's first word (its command's name) and the rest (the argument, trimmed). */
static void split(const char *line, const char **word, size_t *n, const char **arg)
{
    while (*line == ' ') {
        line++;
    }
    *word = line;
    *n = strcspn(line, " ");
    const char *a = line + *n;
    while (*a == ' ') {
        a++;
    }
    *arg = a;
}

/* Does the current view's table or the global one run cmd? Else the first view that does. */
static enum tui_view where(const struct tui_app *app, enum tui_cmd cmd, int *here)
{
    *here = tui_app_command_global(cmd);
    const struct tui_view_ops *ops = tui_view_ops(app->view);
    for (size_t i = 0; !*here && i < ops->ncmds; i++) {
        *here = ops->cmds[i].cmd == cmd;
    }
    for (int v = 0; v < TUI_VIEW_COUNT; v++) {
        const struct tui_view_ops *o = tui_view_ops((enum tui_view)v);
        for (size_t i = 0; i < o->ncmds; i++) {
            if (o->cmds[i].cmd == cmd) {
                return (enum tui_view)v;
            }
        }
    }
    return TUI_VIEW_COUNT;
}

unsigned tui_app_command_line(struct tui_app *app, const char *line)
{
    const char *word, *arg;
    size_t n;
    split(line, &word, &n, &arg);
    enum tui_cmd cmd;
    int found = lookup(word, n, &cmd);
    if (found <= 0) {
        tui_app_set_message(app, 1, "%.*s: %s (Tab completes a command's name)", (int)n, word,
                            found ? "several commands start so" : "no such command");
        return TUI_REDRAW;
    }
    const char *name = tui_cmd_info(cmd)->name;
    if (*arg && !arg_of(cmd)) {
        tui_app_set_message(app, 1, "%s takes no argument", name);
        return TUI_REDRAW;
    }
    int here;
    enum tui_view v = where(app, cmd, &here);
    if (!here) {
        tui_app_set_message(app, 1, "%s works in %c %s", name, tui_view_key(v), tui_view_tab(v));
        return TUI_REDRAW;
    }
    if (cmd == TUI_CMD_FOCUS) { // its argument is no prompt's answer
        app->message[0] = '\0';
        return tui_app_focus_set(app, arg) | TUI_REDRAW;
    }
    unsigned r = tui_app_command(app, cmd);
    if (*arg && (r & TUI_PROMPT)) { // the argument answers the prompt the command opened
        enum tui_prompt p = app->prompt;
        r &= ~(unsigned)TUI_PROMPT;
        if (p == TUI_PROMPT_SEARCH || p == TUI_PROMPT_RULE) { // live prompts see it typed
            r |= tui_app_prompt_change(app, arg);
        }
        r |= tui_app_prompt_done(app, arg);
    } else if (*arg) {
        tui_app_set_message(app, 1, "%s asked nothing here: %s not used", name, arg);
    }
    return r | TUI_REDRAW;
}

void tui_app_command_hint(const char *line, char *buf, size_t size)
{
    const char *word, *arg;
    size_t n;
    split(line, &word, &n, &arg);
    enum tui_cmd cmd;
    int found = n ? lookup(word, n, &cmd) : -1;
    if (found > 0 &&
        (word[n] == ' ' || strlen(tui_cmd_info(cmd)->name) == n || lookup(word, n, &cmd) > 0)) {
        const char *what = arg_of(cmd);
        size_t k =
            (size_t)snprintf(buf, size, "%s: %s", tui_cmd_info(cmd)->name, tui_cmd_info(cmd)->help);
        if (what && k < size) {
            k += (size_t)snprintf(buf + k, size - k, iodfg_glyph_text(" · takes %s"), what);
        }
        if (cmd == TUI_CMD_RULE_PRESET && k < size) {
            const char *p;
            for (size_t i = 0; (p = iodfg_rules_preset_name(i, NULL)) && k < size; i++) {
                k += (size_t)snprintf(buf + k, size - k, "%s%s", i ? ", " : ": ", p);
            }
        }
        return;
    }
    if (found == 0) {
        snprintf(buf, size, "no command starts with %.*s", (int)n, word);
        return;
    }
    // several could follow: list them (Tab completes their common start, then each in turn)
    size_t k = (size_t)snprintf(buf, size, "Tab: ");
    const char *name;
    for (int i = 0; (name = name_at(i, &cmd)) && k < size; i++) {
        if (strncmp(name, word, n) == 0) {
            k += (size_t)snprintf(buf + k, size - k, "%s ", name);
        }
    }
}

/* The candidates of the word being completed into names (up to max); their count. *skip: where
 * that word starts in line; *is_arg: it is the argument (a preset's name), not the command. */
static size_t candidates(const char *line, const char **names, size_t max, size_t *skip,
                         int *is_arg)
{
    const char *word, *arg;
    size_t n, count = 0;
    split(line, &word, &n, &arg);
    enum tui_cmd cmd;
    const char *name;
    *is_arg = word[n] == ' ';
    if (*is_arg) { // the argument: preset names
        if (lookup(word, n, &cmd) <= 0 || cmd != TUI_CMD_RULE_PRESET) {
            return 0;
        }
        *skip = (size_t)(arg - line);
        for (size_t i = 0; (name = iodfg_rules_preset_name(i, NULL)) && count < max; i++) {
            if (strncmp(name, arg, strlen(arg)) == 0) {
                names[count++] = name;
            }
        }
        return count;
    }
    *skip = (size_t)(word - line);
    for (int i = 0; (name = name_at(i, &cmd)) && count < max; i++) {
        if (strncmp(name, word, n) == 0) {
            names[count++] = name;
        }
    }
    return count;
}

int tui_app_command_complete(const char *line, unsigned nth, char *buf, size_t size)
{
    const char *names[TUI_CMD_COUNT + NALIASES + 8];
    size_t skip = 0;
    int is_arg = 0;
    size_t n = candidates(line, names, sizeof(names) / sizeof(names[0]), &skip, &is_arg);
    if (n == 0) {
        return 0;
    }
    size_t typed = strlen(line) - skip, lcp = strlen(names[0]);
    for (size_t i = 1; i < n; i++) {
        size_t k = 0;
        while (k < lcp && names[i][k] == names[0][k]) {
            k++;
        }
        lcp = k;
    }
    int longer = n > 1 && lcp > typed; // first the common start, then each in turn
    if (longer && nth == 0) {
        snprintf(buf, size, "%.*s%.*s", (int)skip, line, (int)lcp, names[0]);
        return 1;
    }
    const char *pick = names[(nth - (unsigned)longer) % n];
    enum tui_cmd cmd;
    // a whole command that takes an argument: the blank before it too
    int space = !is_arg && n == 1 && lookup(pick, strlen(pick), &cmd) > 0 && arg_of(cmd);
    snprintf(buf, size, "%.*s%s%s", (int)skip, line, pick, space ? " " : "");
    return 1;
}
