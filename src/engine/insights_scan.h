/* SPDX-License-Identifier: MIT */
/* The event scan of insights_scan.c and what the judges of insights_scan_judge.c read from it:
 * per key and activity counts of transfers, terminal writes, seeks, lock cycles, failed calls
 * and metadata time. */
#ifndef IODFG_ENGINE_INSIGHTS_SCAN_H
#define IODFG_ENGINE_INSIGHTS_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "insights_families.h"
#include "insights_tally.h"

/* Per key: what the rules of the scan need to know about it. */
enum { K_META = 1, K_TTY = 2, K_FILE = 4, K_FLOCK = 8 };

struct ins_seek_edge {
    uint32_t from, to;
    struct ins_set set; /* the seeks */
};

/* What the scan counted (per key, activity, case, directory). */
struct ins_scan {
    struct ins_ctx *x;
    uint8_t *kc;                 /* per key: K_* */
    uint64_t *rw_ops;            /* per activity: reads and writes of files */
    struct ins_set *small, *tty; /* per activity */
    struct ins_seek_edge *edges;
    size_t nedges, capedges;
    struct ins_pairs edge_paths, err_paths;
    uint32_t *errs; /* distinct errno string ids (log pool) */
    struct ins_set *err_set;
    size_t nerrs, caperrs;
    struct ins_set flock;
    uint64_t cycles;
    struct ins_map pid_last, lock;
    int64_t *meta_ns, *data_ns; /* per case */
    uint64_t *meta_n;
    uint32_t *key_dir; /* per key: directory id in the insights' pool, or UINT32_MAX */
    int64_t *dir_ns;   /* per insights' pool id: metadata time in that directory */
    size_t ndir;
};

/* The findings of the scan's rule families, each judged over the whole scan: small transfers
 * and tiny terminal writes; seeks before reads and writes, and lock cycles; failed-call
 * storms; the metadata share. 0 or -1 (memory). */
int ins_judge_transfers(struct ins_scan *s);
int ins_judge_seeks(struct ins_scan *s);
int ins_judge_failures(struct ins_scan *s);
int ins_judge_metadata(struct ins_scan *s);

#endif
