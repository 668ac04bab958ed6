/* SPDX-License-Identifier: MIT */
/* Partial results of an analysis session over some of a log's cases (one process of an MPI job
 * reads a range of the cases), and what combines them exactly into the results of all the cases
 * together: the DFG and statistics a session over the whole log computes, bit for bit. The
 * transport between processes is the caller's (iodfg-mpi); doc/mpi.md says why each step is
 * exact. Every function reads the session's last rebuild. */
#ifndef IODFG_PARTIAL_H
#define IODFG_PARTIAL_H

#include <stddef.h>
#include <stdint.h>

struct iodfg_access_row;
struct iodfg_bw_row;
struct iodfg_dfg;
struct iodfg_dfg_edge;
struct iodfg_error;
struct iodfg_eventlog;
struct iodfg_mapping;
struct iodfg_selection;
struct iodfg_serial;
struct iodfg_session;
struct iodfg_stats;

/* ---- key sums: counts, sums, minima and maxima add up ---- */

/* The decomposable sums of one key's selected events (the rates' sum is folded apart). */
struct iodfg_partial_key {
    uint64_t count, dur_n, dr_n;
    int64_t dur_sum_ns, bytes;
    int64_t dur_min_ns, dur_max_ns; /* INT64_MAX and INT64_MIN while dur_n = 0 */
};
/* The sums of the session's selected events per key (the log's key count of entries): those
 * its last rebuild added, read without a walk. 0 (err is kept for other sources). */
int iodfg_partial_keys(const struct iodfg_session *s, struct iodfg_partial_key *out,
                       struct iodfg_error *err);
/* Add src into dst (nkeys entries). */
void iodfg_partial_keys_add(struct iodfg_partial_key *dst, const struct iodfg_partial_key *src,
                            uint32_t nkeys);
/* Go on with each key's sum of per-event rates over the session's selected events, in event
 * order: sum[k] (when has[k]) or 0 takes each rate in turn, and has[k] is set by a key's first
 * rate. Parts folded one after the other in case order give the serial sums exactly. A key
 * without has[k] takes the session's own sum (the same additions from 0); only keys with it are
 * walked again. 0, or -1 with err (memory). */
int iodfg_partial_dr_fold(const struct iodfg_session *s, double *sum, uint8_t *has,
                          struct iodfg_error *err);

/* ---- the whole job's results on the process that writes them ---- */

/* Statistics from the merged key sums, rate sums (nkeys entries) and activity case counts
 * (map->nactivities entries); mc, percentiles and the derived rd and DR are set afterwards
 * (iodfg_partial_stats_finish). 0, or -1 with err. */
int iodfg_partial_stats(struct iodfg_stats *st, const struct iodfg_mapping *map,
                        const struct iodfg_partial_key *keys, const double *dr_sum,
                        const uint64_t *act_cases, struct iodfg_error *err);
/* rd and DR of every activity, once mc is set. */
void iodfg_partial_stats_finish(struct iodfg_stats *st);
/* Add n edges of a part (present ones, in its slot order: count, cases, gap_n, gap_sum_ns)
 * and its traces to g, a graph of nact activities: a new edge takes the next slot, so that
 * parts added in case order give the slots of a serial count. 0, or -1 with err. */
int iodfg_partial_dfg_add(struct iodfg_dfg *g, uint32_t nact, const struct iodfg_dfg_edge *edges,
                          size_t n, uint64_t traces, struct iodfg_error *err);
/* Gap means of every edge, once all parts are added, and, unless gap_median is NULL, each
 * slot's gap median (slot order) as found over the whole job. */
void iodfg_partial_dfg_finish(struct iodfg_dfg *g, const int64_t *gap_median);

/* ---- percentiles: histograms of values add up ---- */

/* The gaps whose nearest-rank medians the statistics give, of the session's selection: per edge
 * slot of the session's DFG its gaps (unsorted; with gaps 0 no edge has values: for outputs that
 * show no gap medians). The activities' durations are not copied: iodfg_partial_dur_hist and
 * iodfg_partial_dur_keep read them where they lie. */
struct iodfg_partial_values {
    size_t nslots;
    uint64_t
        *edge_off; /* nslots + 1: edge slot i's gaps are edge_v[edge_off[i] .. edge_off[i+1]) */
    int64_t *edge_v;
};
int iodfg_partial_values_build(const struct iodfg_session *s, int gaps,
                               struct iodfg_partial_values *v, struct iodfg_error *err);
void iodfg_partial_values_fini(struct iodfg_partial_values *v);
/* The 1-based rank of the nearest-rank pct-th percentile of n values (as the engine's). */
uint64_t iodfg_partial_rank(uint64_t n, unsigned pct);

/* A range of values that a percentile lies in, cut into IODFG_PARTIAL_BUCKETS buckets: the first
 * cut (iodfg_partial_cut_all) puts every int64 in a bucket of a log scale (a sign, a power of two
 * and 3 more bits), later ones cut [lo, hi] (int64 values v as the uint64 v ^ 2^63) in equal
 * parts. Histograms of parts add up; the summed histogram names the bucket of the rank-th value
 * and its rank in it, and each round narrows the range until it holds one value. */
enum { IODFG_PARTIAL_BUCKETS = 1024 };
struct iodfg_partial_cut {
    uint64_t lo, hi;
    int shift; /* equal parts: bucket (u - lo) >> shift */
    int log;   /* the first cut */
};
void iodfg_partial_cut_all(struct iodfg_partial_cut *c);
/* Add the buckets of those of the n values at v that lie in c's range to hist. */
void iodfg_partial_hist(const int64_t *v, uint64_t n, const struct iodfg_partial_cut *c,
                        uint64_t *hist);
/* From the histogram of all parts: narrow c to the bucket holding the rank-th (1-based) value of
 * its range and make *rank the value's rank in that bucket; the bucket. */
uint32_t iodfg_partial_narrow(struct iodfg_partial_cut *c, const uint64_t *hist, uint64_t *rank);
/* 1 with *v when c's range holds one value, else 0. */
int iodfg_partial_cut_value(const struct iodfg_partial_cut *c, int64_t *v);
/* Copy those of the n values at v that lie in c's range to out; how many. */
uint64_t iodfg_partial_keep(const int64_t *v, uint64_t n, const struct iodfg_partial_cut *c,
                            int64_t *out);
/* The same for two ranges of the same values in one pass: how many into *k1 and *k2. */
void iodfg_partial_keep2(const int64_t *v, uint64_t n, const struct iodfg_partial_cut *c1,
                         int64_t *out1, uint64_t *k1, const struct iodfg_partial_cut *c2,
                         int64_t *out2, uint64_t *k2);
/* The activities' durations straight from the session's columns, in the first round: add to
 * hist[a * IODFG_PARTIAL_BUCKETS + b] the known durations of the selected events of activity a
 * in bucket b of the first cut (iodfg_partial_cut_all); the session's activities' worth of
 * histograms. */
void iodfg_partial_dur_hist(const struct iodfg_session *s, uint64_t *hist);
/* Bytes the first round may take to count four histograms side by side (default 4 MiB: 128
 * activities); with more it counts into hist alone. Tests set 0 to take that way. */
extern size_t iodfg_partial_hist_copies_max;
/* Where the next round keeps an activity's durations: those in cut go to out (room for cap + 1:
 * the pass may write one value past those it counts; out NULL: none kept), counted in k. */
struct iodfg_partial_keep_to {
    struct iodfg_partial_cut cut;
    int64_t *out;
    uint64_t cap, k;
};
/* For each activity a, keep[2a] and keep[2a + 1] (its median's and its 95th percentile's
 * ranges; none from nkeep on) take the known durations of the session's selected events of a in
 * their cut, in one pass over the columns. 0, or -1 when a range holds more than its cap (the
 * caps come from iodfg_partial_dur_hist of the same session, so they do not) or when out of
 * memory. */
int iodfg_partial_dur_keep(const struct iodfg_session *s, struct iodfg_partial_keep_to *keep,
                           size_t nkeep);

/* ---- maximum concurrency: a sweep over time ranges with the count carried in ---- */

/* One interval boundary: a start or an end of a selected, mapped event with a known dur > 0,
 * on its case's clock (times of different clocks are never compared). */
struct iodfg_partial_point {
    int64_t time_ns;
    uint32_t act;
    uint8_t clock, start;
    uint16_t pad;
};
/* The session's points in the sweep's order (taken from the session's timeline: no sort), *pts
 * malloc'd with room for 2 points per event of the session's log (the caller frees). 0, or -1
 * with err. */
int iodfg_partial_points(const struct iodfg_session *s, struct iodfg_partial_point **pts, size_t *n,
                         struct iodfg_error *err);
/* The same points without copying them: positions of the session's timeline, whose every entry
 * (selected and mapped or not) has a place in the sweep's order. A process sweeps its own points
 * from here and copies only those it sends (16 bytes a point of fresh memory cost more than
 * reading the columns again). */
struct iodfg_partial_view {
    const uint32_t *ent; /* the timeline's entries */
    uint64_t n;          /* how many */
    uint8_t *clk;        /* per event of the log: its case's clock; NULL when all have clock */
    uint8_t clock;
    const uint16_t *code; /* per event: the session's own activity code (borrowed), or NULL */
    uint32_t *pact;       /* without codes, per event: its activity (IODFG_NO_ACTIVITY: none) */
    const int64_t *start_ns, *dur_ns;
};
/* The session's view (borrowing the session, which must not change meanwhile). 0, or -1 with
 * err. */
int iodfg_partial_view_init(const struct iodfg_session *s, struct iodfg_partial_view *v,
                            struct iodfg_error *err);
void iodfg_partial_view_fini(struct iodfg_partial_view *v);
/* Position i's place in the sweep's order into *pt (its act field only when it is a point); 1
 * when it is one of the session's points, else 0. */
int iodfg_partial_view_at(const struct iodfg_partial_view *v, uint64_t i,
                          struct iodfg_partial_point *pt);
/* The first position in [0, v->n) whose place is not below p. */
uint64_t iodfg_partial_view_lower(const struct iodfg_partial_view *v,
                                  const struct iodfg_partial_point *p);
/* Copy the points at positions [lo, hi) to out (room for hi - lo); how many. */
size_t iodfg_partial_view_copy(const struct iodfg_partial_view *v, uint64_t lo, uint64_t hi,
                               struct iodfg_partial_point *out);
/* The sweep's order: clock, time, ends before starts (as the engine's timeline). <0, 0, >0. */
int iodfg_partial_point_cmp(const struct iodfg_partial_point *a,
                            const struct iodfg_partial_point *b);
void iodfg_partial_points_sort(struct iodfg_partial_point *pts, size_t n);

/* ---- the pruned sweep: buckets of the sweep's order (doc/mpi.md says why it is exact) ----
 * The job's points are cut into nb buckets at nb - 1 splitters shared by every part (bucket b:
 * the points from split[b - 1] on and below split[b]; equal points share a bucket). Per pair
 * (bucket, activity) a part sums its points' net change, its rise (the highest count above the
 * bucket's start count right after one of its starts, at least 0) and its starts. Summed over
 * the parts, the nets give the exact count at each bucket's start and the rises an upper bound
 * of the highest count inside; only pairs whose bound can still reach the maximum are kept
 * (as windows, below). Sums are indexed [k][b][a]: k one of the enum, b the
 * bucket, a the activity (IODFG_PARTIAL_SUMS * nb * nact entries). */
/* Two more per part and pair tighten the lower bound of the maximum: its fall (the lowest count
 * of its own points below the bucket's start count, at most 0; the falls add up too) and its
 * peak (its rise minus its fall when the rise is at least 1, else INT64_MIN), of which the parts'
 * highest is taken, not their sum: the kinds before IODFG_PARTIAL_PEAK add up. */
enum {
    IODFG_PARTIAL_NET,
    IODFG_PARTIAL_RISE,
    IODFG_PARTIAL_STARTS,
    IODFG_PARTIAL_FALL,
    IODFG_PARTIAL_PEAK,
    IODFG_PARTIAL_SUMS
};
/* The view's first position of every bucket into pos (nb + 1 entries: pos[0] = 0, pos[nb] =
 * v->n). known (nknown of them, NULL: none) are the view's points at positions at (increasing),
 * such as the samples the splitters were chosen from: each search then covers only the
 * positions between the two of them around its splitter (a few hundred instead of millions). */
void iodfg_partial_bucket_pos(const struct iodfg_partial_view *v,
                              const struct iodfg_partial_point *split, uint32_t nb,
                              const struct iodfg_partial_point *known, const uint64_t *at,
                              size_t nknown, uint64_t *pos);
/* This part's sums of its points (one pass over the view), with SSE4.1 where the processor has
 * it and iodfg_partial_bucket_vector is not 0 (tests set it to 0 to check the plain pass). 0,
 * or -1 when out of memory. */
extern int iodfg_partial_bucket_vector;
int iodfg_partial_bucket_sums(const struct iodfg_partial_view *v, const uint64_t *pos, uint32_t nb,
                              uint32_t nact, int64_t *sums);
/* The pairs of a part's sums that have points, packed: for adding up parts where most pairs
 * have none (np = nb * nact pairs). */
struct iodfg_partial_pair_sums {
    uint64_t pair; /* b * nact + a */
    int64_t v[IODFG_PARTIAL_SUMS];
};
/* How many of the np pairs of sums have points. */
uint64_t iodfg_partial_pairs_count(const int64_t *sums, size_t np);
/* Those pairs into out (room for their count), in pair order; how many. */
uint64_t iodfg_partial_pairs_pack(const int64_t *sums, size_t np,
                                  struct iodfg_partial_pair_sums *out);
/* sums (np pairs) as of no part: zero, and no peak. */
void iodfg_partial_sums_clear(int64_t *sums, size_t np);
/* Add n packed pairs of a part into sums, as the parts' sums add up (peaks: the highest). 0, or
 * -1 when a pair is not below np (sums then half added). */
int iodfg_partial_pairs_add(int64_t *sums, size_t np, const struct iodfg_partial_pair_sums *in,
                            uint64_t n);
/* From the sums of all parts: at[b * nact + a] the count of activity a at bucket b's start, and
 * pick[b * nact + a] 1 when the pair must be swept (it may hold the first point reaching the
 * maximum), else 0; unless NULL, low[a] a count the job reaches (INT64_MIN: a has no start) and
 * first[a] the first bucket known to reach it (a picked one). How many pairs are picked. */
uint64_t iodfg_partial_bucket_pick(const int64_t *sums, uint32_t nb, uint32_t nact, int64_t *at,
                                   uint8_t *pick, int64_t *low, uint32_t *first);
/* How many of this part's points (by its own sums) lie in picked pairs of buckets [b0, b1) (pick
 * NULL: in any pair). */
uint64_t iodfg_partial_bucket_count(const int64_t *sums, uint32_t nb, uint32_t nact,
                                    const uint8_t *pick, uint32_t b0, uint32_t b1);
/* ---- windows: the picked pairs cut finer, round by round, before any point moves ----
 * A window is a stretch of one activity's points in the sweep's order that may hold its maximum,
 * with the job's count at its start. The picked pairs are the first windows. A round cuts each
 * window into `sub` pieces of equal time between the job's first and last point there (a window
 * whose points lie on more than one clock stays whole, in its first piece), sums each part's
 * points per piece as the buckets are summed, and keeps the pieces that may still hold the first
 * point reaching the maximum: they are the next round's windows. A part's copies of its points
 * carry their window in their act field. */
struct iodfg_partial_window {
    int64_t at;      /* the job's count of the activity just before the window */
    uint32_t act;    /* the activity */
    uint32_t bucket; /* the bucket it lies in (which process sweeps it) */
};
/* What a job knows of each activity between rounds: a count it reaches (INT64_MIN: none), and the
 * last window at or before whose end it is first reached (IODFG_PARTIAL_NO_WINDOW: none). */
struct iodfg_partial_reach {
    int64_t low;
    uint32_t first;
};
#define IODFG_PARTIAL_NO_WINDOW UINT32_MAX
/* The picked pairs (of iodfg_partial_bucket_pick, with its low and first) as windows in the
 * sweep's order into w (room for the picked pairs), each pair's window into wid (nb * nact:
 * IODFG_PARTIAL_NO_WINDOW when not picked), and what is known of each activity into reach. How
 * many windows. */
uint32_t iodfg_partial_windows_of_pick(const int64_t *at, const uint8_t *pick, uint32_t nb,
                                       uint32_t nact, const int64_t *low, const uint32_t *first,
                                       struct iodfg_partial_window *w, uint32_t *wid,
                                       struct iodfg_partial_reach *reach);
/* The first round on the view, before any point is copied: each bucket with a window is cut into
 * sub pieces of equal time between its splitters (the first and the last bucket, and a bucket
 * over two clocks, stay whole: piece 0), and the pieces of all its windows are those. Into pp
 * ((sub + 1) per bucket, buckets without a window untouched) each piece's first position, found
 * by binary search: no time of any other point is read. */
void iodfg_partial_piece_pos(const struct iodfg_partial_view *v, const uint64_t *pos,
                             const struct iodfg_partial_point *split, uint32_t nb, uint32_t nact,
                             const uint32_t *wid, uint32_t sub, uint64_t *pp);
/* This part's sums of its points per piece of the windows (wid: each pair's window; piece j of
 * window w: entry w * sub + j, laid out as the buckets' sums with nw * sub pairs). 0, or -1 when
 * out of memory. */
int iodfg_partial_piece_sums(const struct iodfg_partial_view *v, const uint64_t *pp, uint32_t nb,
                             uint32_t nact, const uint32_t *wid, uint32_t sub, uint32_t nw,
                             int64_t *sums);
/* A part's points of the pieces of the round on its view, read where they lie: pp, wid and sub
 * as above, to each piece's window next (IODFG_PARTIAL_NO_WINDOW: not kept), buckets [b0, b1)
 * only. */
struct iodfg_partial_pieces {
    const struct iodfg_partial_view *v;
    const uint64_t *pp;
    uint32_t nb, nact, sub;
    const uint32_t *wid, *to;
    uint32_t b0, b1;
};
/* Copy those points to out in the sweep's order, their act field set to their window next; how
 * many (room: iodfg_partial_window_points of this part's piece sums). */
size_t iodfg_partial_piece_copy(const struct iodfg_partial_pieces *pc,
                                struct iodfg_partial_point *out);
/* The least clock, the greatest clock negated, the least time and the greatest time negated of
 * each window's points pts[0..n) into span[4 * w...] (INT64_MAX each when it has none): the
 * element-wise minimum over the parts gives the job's. */
enum { IODFG_PARTIAL_SPAN = 4 };
void iodfg_partial_window_span(const struct iodfg_partial_point *pts, size_t n, uint32_t nw,
                               int64_t *span);
/* This part's sums of its points per piece (window w's piece j: entry w * sub + j, laid out as
 * the buckets' sums with nw * sub pairs), the pieces cut by the job's span. 0, or -1 when out of
 * memory. */
int iodfg_partial_window_sums(const struct iodfg_partial_point *pts, size_t n, const int64_t *span,
                              uint32_t nw, uint32_t sub, int64_t *sums);
/* From the sums of all parts: the pieces that may hold the first point reaching an activity's
 * maximum become the windows next (into next, room for nw * sub, in the sweep's order); to[piece]
 * their number or IODFG_PARTIAL_NO_WINDOW; reach (nact activities) brought up to date. How many
 * windows next, or -1 when out of memory. */
int64_t iodfg_partial_window_pick(const struct iodfg_partial_window *w, uint32_t nw, uint32_t sub,
                                  const int64_t *sums, uint32_t nact,
                                  struct iodfg_partial_reach *reach,
                                  struct iodfg_partial_window *next, uint32_t *to);
/* This part's points of kept pieces, moved to the front of pts (in order) with their new window;
 * how many. */
size_t iodfg_partial_window_keep(struct iodfg_partial_point *pts, size_t n, const int64_t *span,
                                 uint32_t sub, const uint32_t *to);
/* The job's points in the pieces kept (by the sums of all parts). */
uint64_t iodfg_partial_window_points(const int64_t *sums, uint64_t npieces, const uint32_t *to);
/* Sweep the points of the windows, each window from its count at its start: nruns sorted runs
 * (each in the sweep's order) and, unless own is NULL, a part's points of the kept pieces of
 * buckets [own->b0, own->b1) read from its view (the runs then hold points of those buckets
 * only), every part's points of a window among them. best[a] (INT64_MIN when none, as the caller
 * sets it) gets each activity's highest count just after a start and when[a] the time it is
 * first reached. 0, or -1 with err (memory). */
int iodfg_partial_sweep_windows(const struct iodfg_partial_pieces *own,
                                const struct iodfg_partial_point *const *runs, const size_t *len,
                                size_t nruns, const struct iodfg_partial_window *w, uint32_t nw,
                                int64_t *best, int64_t *when, struct iodfg_error *err);
/* ---- characterisation (iodfg/characterize.h) of parts holding different cases ---- */

/* Add n rows of Wright et al.'s bandwidths (count, cases, sums, first start, last end); their
 * rates are set afterwards by iodfg_bw_row_finish. */
void iodfg_partial_bw_rows_add(struct iodfg_bw_row *dst, const struct iodfg_bw_row *src, size_t n);
/* Add n access-pattern rows (counts, bytes, size histograms). */
void iodfg_partial_access_rows_add(struct iodfg_access_row *dst, const struct iodfg_access_row *src,
                                   size_t n);
/* A selected, mapped event with a known dur > 0: the stair-case index's input. */
struct iodfg_partial_span {
    int64_t start_ns, end_ns;
    uint32_t act;
    uint8_t clock;
};
/* The spans of sel's events of log in event order (*out malloc'd). 0, or -1 with err. */
int iodfg_partial_spans(const struct iodfg_eventlog *log, const struct iodfg_mapping *map,
                        const struct iodfg_selection *sel, struct iodfg_partial_span **out,
                        size_t *n, struct iodfg_error *err);
/* The stair-case index of nact activities over n spans given in the order of the whole log's
 * events (every part's in case order): what iodfg_serial_build gives over that log. 0, or -1
 * with err. */
int iodfg_partial_serial(struct iodfg_serial *s, const struct iodfg_partial_span *spans, size_t n,
                         uint32_t nact, struct iodfg_error *err);

#endif
