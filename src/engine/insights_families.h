/* SPDX-License-Identifier: MIT */
/* The insights rule families, each in its own file; insights.c runs them in turn. */
#ifndef IODFG_ENGINE_INSIGHTS_FAMILIES_H
#define IODFG_ENGINE_INSIGHTS_FAMILIES_H

#include "insights_finding.h"

struct iodfg_error;

/* The rule families; each returns 0 or -1 (out of memory). */
int ins_scan_events(struct ins_ctx *x); /* small-io, tiny-tty, seek-io, lock, failed, meta */
int ins_scan_cases(struct ins_ctx *x);  /* imbalance, straggler */
int ins_scan_files(struct ins_ctx *x);  /* shared-file, reread, repeated-open */
int ins_scan_derived(struct ins_ctx *x, struct iodfg_error *err); /* access, stair, bursty */
int ins_scan_spread(struct ins_ctx *x); /* file-per-process, one-case */
/* Each finding's place for comparisons (insights_compare.c): 0 or -1 (memory). */
int ins_align(struct ins_ctx *x);

#endif
