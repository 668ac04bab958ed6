/* SPDX-License-Identifier: MIT */
/* The views still drawn and driven by the old code (app.c, views.c, term/draw.c) while they
 * move into files of their own; each goes from here when its file comes. */
#include "config.h"

#include "tui/view.h"

const struct tui_view_ops tui_view_activities = {.open = NULL};
const struct tui_view_ops tui_view_transitions = {.open = NULL};
const struct tui_view_ops tui_view_graph = {.open = NULL};
const struct tui_view_ops tui_view_timeline = {.open = NULL};
const struct tui_view_ops tui_view_diff = {.open = NULL};
const struct tui_view_ops tui_view_cases = {.open = NULL};
const struct tui_view_ops tui_view_charz = {.open = NULL};
