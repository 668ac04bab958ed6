/* SPDX-License-Identifier: MIT */
/* Every characterisation metric of a selection in one call (Wright et al. 2013 and El Sayed et al.
 * 2016, access patterns), on one or two threads: what the CLI's characterize and the TUI's view
 * show. */
#ifndef IODFG_CHARACTERIZE_H
#define IODFG_CHARACTERIZE_H

#include <stdint.h>

#include "iodfg/access.h"
#include "iodfg/bandwidth.h"
#include "iodfg/metrics.h"

struct iodfg_cancel;
struct iodfg_error;
struct iodfg_eventlog;
struct iodfg_mapping;
struct iodfg_selection;
struct iodfg_timeline;

struct iodfg_characterization {
    struct iodfg_binned bins;   /* El Sayed et al. 2016 (metrics.h) */
    struct iodfg_bandwidth bw;  /* Wright et al. 2013 bandwidths and time shares (bandwidth.h) */
    struct iodfg_serial serial; /* stair-case index (bandwidth.h) */
    struct iodfg_access access; /* access patterns (access.h) */
};

void iodfg_characterization_init(struct iodfg_characterization *ch);
void iodfg_characterization_fini(struct iodfg_characterization *ch);
/* Compute all four over sel. tl: the log's timeline (stats.h) or NULL to build one. nthreads
 * 2 runs the stair-case sweep beside the per-case passes. 0 or -1 with err (the first error;
 * then every part is emptied; IODFG_E_CANCELLED soon after cancel is set: cancel.h). */
int iodfg_characterize(struct iodfg_characterization *ch, const struct iodfg_eventlog *log,
                       const struct iodfg_mapping *map, const struct iodfg_selection *sel,
                       const struct iodfg_bin_opts *o, int64_t alignment,
                       const struct iodfg_timeline *tl, int nthreads,
                       const struct iodfg_cancel *cancel, struct iodfg_error *err);

#endif
