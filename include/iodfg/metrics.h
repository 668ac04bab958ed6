/* SPDX-License-Identifier: MIT */
/* I/O characterisation over time bins (El Sayed et al. 2016): volumes N, bandwidth B(t), IOPS Γ(t),
 * I/O intensity I, burstiness ρ and parallel I/O intensity P per "server", read and write apart;
 * plus the read/write classification of calls shared by bandwidth.h and access.h. */
#ifndef IODFG_METRICS_H
#define IODFG_METRICS_H

#include <stddef.h>
#include <stdint.h>

struct iodfg_buf;
struct iodfg_counters;
struct iodfg_cancel;
struct iodfg_error;
struct iodfg_eventlog;
struct iodfg_mapping;
struct iodfg_selection;

/* What a call does to a file, by name (doc/metrics.md lists the calls). */
enum iodfg_io_flag {
    IODFG_IO_READ = 1u << 0,       /* read, readv, pread64, preadv, preadv2 */
    IODFG_IO_WRITE = 1u << 1,      /* write, writev, pwrite64, pwritev, pwritev2 */
    IODFG_IO_POSITIONAL = 1u << 2, /* the offset column is the access offset (p* calls) */
    IODFG_IO_SEEK = 1u << 3,       /* lseek, _llseek: the offset column is the new position */
    IODFG_IO_OPEN = 1u << 4,       /* open, openat, openat2, creat: position 0 */
    IODFG_IO_CLOSE = 1u << 5,      /* close: the descriptor is forgotten */
};
unsigned iodfg_metrics_call_flags(const char *call, size_t len);
/* flags[k] = iodfg_metrics_call_flags of key k's call for every key of log (key_count entries). */
void iodfg_metrics_key_flags(const struct iodfg_eventlog *log, uint8_t *flags);

/* Direction index of per-direction arrays. */
enum { IODFG_DIR_READ = 0, IODFG_DIR_WRITE = 1, IODFG_DIR__N = 2 };

/* What a "server" s of El Sayed et al. 2016 is when the input is an event log. */
enum iodfg_server_by { IODFG_BY_HOST = 0, IODFG_BY_CASE, IODFG_BY_FILE };
const char *iodfg_server_by_name(enum iodfg_server_by by);
/* 0 and *by for "host", "case" or "file"; -1 otherwise. */
int iodfg_server_by_parse(const char *s, enum iodfg_server_by *by);

struct iodfg_bin_opts {
    int64_t dt_ns;           /* bin width Δt; <= 0: iodfg_metrics_default_dt(span) */
    double threshold;        /* c in bytes (Eq. 3), >= 0 */
    enum iodfg_server_by by; /* ignored for counter input */
};

/* The El Sayed et al. 2016 numbers of one direction x (its equation numbers). */
struct iodfg_dir_metrics {
    double volume;           /* N_x (Eq. 4), bytes */
    double ops;              /* operations */
    double bw_max, iops_max; /* max over t of B_x(t) = Σ_s B_x(s,t) (Eq. 5) and Γ_x(t) (Eq. 6) */
    uint32_t bw_max_bin;     /* bin of bw_max */
    double server_bw_max;    /* max over s and t of B_x(s,t) */
    double server_iops_max;  /* max over s and t of Γ_x(s,t) */
    uint32_t busy_bins;      /* Σ_i H(t_i) */
    double intensity;        /* I (Eq. 7) */
    double l_io, l_noio;     /* mean lengths (bins) of the runs of H = 1 and H = 0 */
    double burstiness;       /* ρ (Eq. 8) */
    double par_raw;          /* Π = Σ_i π(t_i) / Σ_i H(t_i) */
    double parallel;         /* P (Eq. 9) */
};

/* Binned volumes of the selected read/write events (or resampled counters) and their metrics.
 * Bin i covers [t0 + i dt, t0 + (i+1) dt). Arrays are [server * nbins + bin]. */
struct iodfg_binned {
    int64_t t0_ns, dt_ns, span_ns; /* t_start, Δt, t_end - t_start */
    uint32_t nbins, nservers;
    char **server;               /* nservers names (owned) */
    double *bytes[IODFG_DIR__N]; /* bytes moved in a bin by a server */
    double *ops[IODFG_DIR__N];   /* operations (fractional when spread) */
    double *total_bytes[IODFG_DIR__N], *total_ops[IODFG_DIR__N]; /* Σ over servers, per bin */
    /* From an event log the totals N_x and operations are counted per event (exact integers),
     * not summed from bins that hold fractions of spread events. */
    int exact;
    uint64_t exact_bytes[IODFG_DIR__N], exact_ops[IODFG_DIR__N];
    double threshold;
    struct iodfg_dir_metrics dir[IODFG_DIR__N];
};

void iodfg_binned_init(struct iodfg_binned *b);
void iodfg_binned_fini(struct iodfg_binned *b);
/* Allocate zeroed bins for nservers x nbins (names NULL); replaces previous contents. 0 or -1
 * (E_NOMEM, or E_LIMIT past 2^28 cells). */
int iodfg_binned_alloc(struct iodfg_binned *b, uint32_t nservers, uint32_t nbins,
                       struct iodfg_error *err);
/* Bin the selected read/write events of log (time window, cases, mapped keys) by o->by and
 * compute the metrics. An event's bytes and its one operation are spread over the bins its
 * [start, start+dur) overlaps in proportion to time; dur 0 or unknown puts all in the start bin.
 * The grid spans the selected events (any call): t_start = first start, t_end = last end.
 * 0, or -1 with err (out of memory, too many bins, no start/dur/size/key column;
 * IODFG_E_CANCELLED when cancel was set: cancel.h). */
int iodfg_binned_build(struct iodfg_binned *b, const struct iodfg_eventlog *log,
                       const struct iodfg_mapping *map, const struct iodfg_selection *sel,
                       const struct iodfg_bin_opts *o, const struct iodfg_cancel *cancel,
                       struct iodfg_error *err);
/* Resample counter samples onto a common grid of width o->dt_ns by El Sayed et al. 2016's Eq. (1)
 * and compute the metrics; the volume of a bin is the difference of the interpolated cumulative
 * counters at its edges. 0 or -1 with err. */
int iodfg_binned_from_counters(struct iodfg_binned *b, const struct iodfg_counters *c,
                               const struct iodfg_bin_opts *o, struct iodfg_error *err);
/* (Re)compute total_* and dir[] from the bins with threshold c (Eq. 3-9); cheap, so a view
 * can change c without re-binning. */
void iodfg_binned_finish(struct iodfg_binned *b, double threshold);

/* ---- binning in parts (iodfg-mpi: each process reads some of the cases) ---- */

/* The grid of iodfg_binned_build for selected events spanning [t0, t1] (t0 INT64_MAX: none)
 * and bin width dt (<= 0: the default): t0_ns, dt_ns, span_ns and nbins of b. 0, or -1 with err
 * (too many bins). */
int iodfg_binned_grid(struct iodfg_binned *b, int64_t t0, int64_t t1, int64_t dt,
                      struct iodfg_error *err);
/* The servers of the selected reads and writes in order of first appearance and the span of
 * the selected events (pass 1 of iodfg_binned_build). A server is an id: a case index
 * (IODFG_BY_CASE) or a string id of the log's pool (iodfg_binned_server_name). */
struct iodfg_binned_servers {
    int64_t t0_ns, t1_ns; /* INT64_MAX and INT64_MIN when no event is selected */
    uint32_t n;
    uint32_t *id; /* n servers' ids */
    uint32_t *of; /* per id (iodfg_binned_id_count): its server, or UINT32_MAX */
};
/* kf: iodfg_metrics_key_flags of the log. 0, or -1 with err (memory). */
int iodfg_binned_scan(struct iodfg_binned_servers *sv, const struct iodfg_eventlog *log,
                      const struct iodfg_mapping *map, const struct iodfg_selection *sel,
                      enum iodfg_server_by by, const uint8_t *kf, struct iodfg_error *err);
void iodfg_binned_servers_fini(struct iodfg_binned_servers *sv);
uint32_t iodfg_binned_id_count(const struct iodfg_eventlog *log, enum iodfg_server_by by);
uint32_t iodfg_binned_server_id(const struct iodfg_eventlog *log, enum iodfg_server_by by,
                                uint32_t c, uint32_t key);
const char *iodfg_binned_server_name(const struct iodfg_eventlog *log, enum iodfg_server_by by,
                                     uint32_t id);
/* Pass 2: add the selected reads and writes, in case and event order, to b's bins (its grid
 * and servers set) and exact totals; of[id] is an id's server. */
void iodfg_binned_spread_events(struct iodfg_binned *b, const struct iodfg_eventlog *log,
                                const struct iodfg_mapping *map, const struct iodfg_selection *sel,
                                enum iodfg_server_by by, const uint8_t *kf, const uint32_t *of);

/* A "nice" Δt (1, 2 or 5 times a power of ten, in ns, >= 1 µs) giving at most 100 bins. */
int64_t iodfg_metrics_default_dt(int64_t span_ns);
/* Add amount to bins[0..nbins) for an event [start, start+dur) on the grid (t0, dt), in
 * proportion to the overlap with each bin; dur <= 0 puts it all in the bin holding start.
 * Parts outside the grid are clamped into the first/last bin. */
void iodfg_metrics_spread(double *bins, uint32_t nbins, int64_t t0, int64_t dt, int64_t start,
                          int64_t dur, double amount);
/* El Sayed et al. 2016 Eq. (1): the value at time t of the samples (ts[i], vs[i]), i < n, ts
 * ascending, by linear interpolation between the samples around t; clamped to vs[0] / vs[n-1]
 * outside. */
double iodfg_metrics_interpolate(double t, const double *ts, const double *vs, size_t n);

/* ---- text rendering for the CLI and the TUI ---- */

/* Chart cell values of iodfg_binned_chart_cells. */
enum { IODFG_CELL_EMPTY = 0, IODFG_CELL_READ, IODFG_CELL_WRITE, IODFG_CELL_AXIS };
/* Fill cells[height][width] with the read series rising above a middle axis row and the write
 * series hanging below it; quantity 0 = bytes (bandwidth), 1 = ops (IOPS). Bins are merged
 * into columns by their maximum; each half scales to the larger of the two maxima. The peak
 * bin of a nonzero series reaches the edge; any nonzero bin shows at least one cell.
 * height >= 3 (odd heights centre the axis). Returns the scale maximum (per second). */
double iodfg_binned_chart_cells(const struct iodfg_binned *b, int quantity, int width, int height,
                                uint8_t *cells);
/* The same as text: height lines of width characters ('#' data, '-' axis, ' ' empty), each
 * followed by '\n'. -1 when out of memory or the size is too small. */
int iodfg_binned_chart(struct iodfg_buf *out, const struct iodfg_binned *b, int quantity, int width,
                       int height);

#endif
