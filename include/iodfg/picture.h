/* SPDX-License-Identifier: MIT */
/* What every picture (heatmap, offset map, timeline) says besides its numbers: the log, the
 * filters, focus and groups in force and the clock; and the axis ticks and labels they share
 * (nice steps, times in the clock's form or relative, binary byte units). */
#ifndef IODFG_PICTURE_H
#define IODFG_PICTURE_H

#include <stddef.h>
#include <stdint.h>

#include "iodfg/eventlog.h"

struct iodfg_buf;
struct iodfg_json;
struct iodfg_mapping;
struct iodfg_selection;
struct iodfg_session;
struct iodfg_timeline;

/* What a picture counts: the selected events (cases, time window on the start) whose key the
 * mapping sends to an activity that act_on keeps. */
struct iodfg_picture_input {
    const struct iodfg_eventlog *log;
    const struct iodfg_mapping *map;
    const struct iodfg_selection *sel; /* per_pid is not followed: rows are trace files */
    const uint8_t *act_on; /* per activity of map, nonzero = counted (a focus); NULL = all */
    /* case masks of G and R (case_count bytes each): rows go into two bands, G first; cases in
     * neither are left out and counted. NULL and NULL: one band of every selected case. */
    const uint8_t *group[2];
    /* the log's time order (iodfg_session_timeline): with it, the heatmap's peak[] holds the
     * exact highest number of a row's calls in flight at once in each bin; NULL: no peaks */
    const struct iodfg_timeline *tl;
};

/* Fill in from a rebuilt session: its log, mapping, selection (into sel), G/R masks (when
 * compared) and timeline; act_on as given. Borrowed until the session's next rebuild. */
void iodfg_picture_input_session(struct iodfg_picture_input *in, struct iodfg_selection *sel,
                                 const struct iodfg_session *s, const uint8_t *act_on);

/* What a picture of session s shows, for its focus line: "the application's I/O (runtime
 * classes folded)" under the focus app, else "all activities". */
const char *iodfg_picture_focus_text(const struct iodfg_session *s);

/* The cases a picture shows: band[c] = 0 (G or the only band), 1 (R) or IODFG_PICTURE_OFF (not
 * selected, in neither group, or of another clock than the one most shown cases use). band has
 * case_count bytes. Sets *nbands (1 or 2), *clock, and the cases left out for their clock and
 * for being in neither group. 0, or -1 when out of memory. */
#define IODFG_PICTURE_OFF 0xff
int iodfg_picture_cases(const struct iodfg_picture_input *in, uint8_t *band, uint32_t *nbands,
                        enum iodfg_clock *clock, uint32_t *clock_dropped, uint32_t *outside_groups);

/* The context a front-end gives a picture. Texts are untrusted (each writer escapes them);
 * NULL or "" leaves an item out. */
struct iodfg_picture_meta {
    const char *log_name; /* the event log's file name */
    const char *filters;  /* the filters in force, as their text ("cid=ssf  time=1..2") */
    const char *focus;    /* the activities shown ("application I/O", "all activities") */
    const char *groups;   /* G and R ("G: cid=posixssf  R: cid=mpiiossf") */
    const char *rules;    /* the mapping rules ("default f-hat", a file name) */
    int relative;         /* 1: times in seconds from origin_ns; 0: in the clock's own form */
    int64_t origin_ns;    /* where relative times count from (iodfg_eventlog_time_origin) */
};

/* A "nice" step (1, 2 or 5 times a power of ten, >= 1) giving at most max_ticks steps over
 * span (> 0). */
int64_t iodfg_picture_step(int64_t span, int max_ticks);
/* The same with powers of two (for byte offsets and sizes). */
int64_t iodfg_picture_step_pow2(int64_t span, int max_ticks);

/* Whether times are shown relative: asked for, or the clock has no time of day. */
int iodfg_picture_is_relative(const struct iodfg_picture_meta *meta, enum iodfg_clock clock);
/* The label of time t at a tick step (its digits follow the step): relative "1.25" (seconds
 * from the origin, the unit in the axis title), or "07:38:51.25" (time of day; the epoch clock
 * in UTC). out holds at least 32 bytes. */
char *iodfg_picture_time_label(char *out, size_t size, int64_t t, int64_t step_ns,
                               enum iodfg_clock clock, const struct iodfg_picture_meta *meta);
/* The time axis' title: "time (s from the log's start)", "time of day", "time (UTC, 2025-07-31)".
 */
char *iodfg_picture_time_title(char *out, size_t size, int64_t t, enum iodfg_clock clock,
                               const struct iodfg_picture_meta *meta);
/* Bytes with a binary unit and up to 3 significant digits ("0 B", "768 KiB", "1.5 MiB"). */
char *iodfg_picture_bytes_label(char *out, size_t size, int64_t bytes);
/* A duration with a decimal unit ("250 µs", "12.5 ms", "3 s"; UTF-8: pictures are files). */
char *iodfg_picture_dur_label(char *out, size_t size, int64_t ns);
/* A count with thin grouping ("1,234,567"). */
char *iodfg_picture_count_label(char *out, size_t size, uint64_t n);

/* The meta as members of the open JSON object (log, filters, focus, groups, rules, clock,
 * origin_ns), for the JSON writers. clock is the picture's. */
void iodfg_picture_json_meta(struct iodfg_json *j, const struct iodfg_picture_meta *meta,
                             enum iodfg_clock clock);

#endif
