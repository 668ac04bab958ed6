/* SPDX-License-Identifier: MIT */
/* Insights' call-site evidence (insights_sites.c). */
#ifndef IODFG_ENGINE_INSIGHTS_SITES_H
#define IODFG_ENGINE_INSIGHTS_SITES_H

struct iodfg_error;
struct iodfg_eventlog;
struct iodfg_insights;
struct iodfg_mapping;
struct iodfg_selection;

/* A log with strace -k stacks (keys split by site): give every finding whose subject is an
 * activity the call sites of that activity's selected events, most time first. 0, or -1 with
 * err when out of memory. Nothing to do without stacks. */
int ins_add_sites(struct iodfg_insights *ins, const struct iodfg_eventlog *log,
                  const struct iodfg_mapping *map, const struct iodfg_selection *sel,
                  struct iodfg_error *err);

#endif
