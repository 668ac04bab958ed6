/* SPDX-License-Identifier: MIT */
/* Per-server I/O counter samples (the server-side counters of El Sayed et al. 2016): plain data
 * that the characterisation (metrics.h) reads; counters_csv.h reads them from a file. */
#ifndef IODFG_COUNTERS_H
#define IODFG_COUNTERS_H

#include <stddef.h>
#include <stdint.h>

/* The cumulative counters of Table I of El Sayed et al., in CSV column order after server and time. */
enum iodfg_counter {
    IODFG_CTR_BYTES_READ = 0, /* _br_ */
    IODFG_CTR_BYTES_WRITTEN,  /* _bw_ */
    IODFG_CTR_READ_OPS,       /* _rdc_ */
    IODFG_CTR_WRITE_OPS,      /* _wc_ */
    IODFG_CTR_OPENS,          /* _oc_ */
    IODFG_CTR_CLOSES,         /* _cc_ */
    IODFG_CTR__N
};
/* CSV header name of a counter ("bytes_read", ...). */
const char *iodfg_counter_name(enum iodfg_counter c);

/* Samples grouped by server (in order of first appearance), ascending time within a server.
 * Values are cumulative and made monotonic: a decrease is a counter reset, after which the
 * values continue from the last value before it. */
struct iodfg_counters {
    uint32_t nservers;
    char **server;   /* nservers names */
    uint64_t *first; /* nservers + 1: samples of server s are [first[s], first[s+1]) */
    size_t nsamples;
    double *t_s;             /* sample times, seconds */
    double *v[IODFG_CTR__N]; /* counter values */
};

void iodfg_counters_init(struct iodfg_counters *c);
void iodfg_counters_fini(struct iodfg_counters *c);

#endif
