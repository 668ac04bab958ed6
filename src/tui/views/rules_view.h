/* SPDX-License-Identifier: MIT */
/* The Rules view's state (rules_view.c; the tests read it). */
#ifndef IODFG_TUI_VIEWS_RULES_VIEW_H
#define IODFG_TUI_VIEWS_RULES_VIEW_H

#include <stddef.h>
#include <stdint.h>

struct tui_rules_view {
    unsigned long cursor; /* 1-based line */
    uint64_t *events;     /* per rule: the selected events it maps (the rules report's) */
    size_t nevents;
    uint64_t events_stamp;   /* the generation + 1 they were summed for */
    uint64_t events_rules;   /* and the rules' generation (a move renumbers the rules) */
    unsigned long edit_line; /* the line being edited, 0 = none */
    char *edit_orig;         /* its text before the edit (NULL: an added line) */
    char error[256];         /* the edit's error, "" when valid */
    unsigned long error_col;
};

#endif
