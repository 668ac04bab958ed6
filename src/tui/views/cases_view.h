/* SPDX-License-Identifier: MIT */
/* The Cases view (cases_view.c): its state, for the tests. */
#ifndef IODFG_TUI_VIEWS_CASES_VIEW_H
#define IODFG_TUI_VIEWS_CASES_VIEW_H

#include <stdint.h>

#include "tui/views/table_view.h"

struct tui_app;
struct tui_listmodel;

/* A variant: a distinct activity sequence and the cases that follow it. */
struct tui_variant {
    uint64_t hash;
    uint32_t first_case; /* a representative case */
    uint32_t ncases, ng, nr;
    uint64_t length;
};

struct tui_cases_view {
    struct tui_table_view table; /* first: the table view's state (the cases) */
    struct tui_listmodel *variants_lm;
    uint32_t *rows; /* the cases the filters keep */
    uint32_t nrows;
    struct tui_variant *variants;
    uint32_t nvariants;
    int show_variants; /* the variants table instead of the cases */
};

#endif
