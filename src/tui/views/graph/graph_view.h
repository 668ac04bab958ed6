/* SPDX-License-Identifier: MIT */
/* The Graph view (graph_view.c): what other views ask of it. */
#ifndef IODFG_TUI_VIEWS_GRAPH_GRAPH_VIEW_H
#define IODFG_TUI_VIEWS_GRAPH_GRAPH_VIEW_H

#include <stdint.h>

struct tui_app;

/* Show the neighbourhood of activity from with the cursor on its edge to activity to. */
void tui_graph_view_select_edge(struct tui_app *app, uint32_t from, uint32_t to);

#endif
