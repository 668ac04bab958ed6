/* SPDX-License-Identifier: MIT */
/* The columnar event log: cases of system-call events, one string pool, (call, path) keys. */
#ifndef IODFG_EVENTLOG_H
#define IODFG_EVENTLOG_H

#include <stddef.h>
#include <stdint.h>

struct iodfg_error;
struct iodfg_strpool;
struct iodfg_eventlog;
struct iodfg_raw_handle;
struct iodfg_handle;

/* Value of an int64 column (dur, size, offset, req) that strace did not show. */
#define IODFG_UNKNOWN INT64_MIN
/* The times an event log holds: starts in [IODFG_START_MIN, IODFG_START_MAX] ns and known
 * durations in [0, IODFG_DUR_MAX] ns, so that an end (start + dur) and any difference of
 * starts and ends fit in an int64. Pushing an event clamps to them (only absurd input lies
 * outside: 36 years before the clock's origin, the year 2116 on the epoch clock, a call of 73
 * years; a negative duration becomes unknown); the HDF5 loader refuses other values. */
#define IODFG_START_MIN (-((int64_t)1 << 60))
#define IODFG_START_MAX ((int64_t)1 << 62)
#define IODFG_DUR_MAX ((int64_t)1 << 61)

/* Sums of int64 values in the engine saturate instead of overflowing (damaged or crafted input
 * can hold any size). */
static inline int64_t iodfg_sat_add(int64_t a, int64_t b)
{
    int64_t r;
    if (__builtin_add_overflow(a, b, &r)) {
        return b > 0 ? INT64_MAX : INT64_MIN;
    }
    return r;
}

/* fd column value when the call has no descriptor. */
#define IODFG_NO_FD INT32_MIN
/* handle column value of an event that used no handle (handle ids start at 1). */
#define IODFG_NO_HANDLE 0u

/* How the start times of a case were recorded. */
enum iodfg_clock {
    IODFG_CLOCK_NONE = 0,        /* no timestamps: start = 0, file order kept */
    IODFG_CLOCK_RELATIVE = 1,    /* -r: nanoseconds since the first line */
    IODFG_CLOCK_TIME_OF_DAY = 2, /* -t/-tt: nanoseconds since the midnight before line 1 */
    IODFG_CLOCK_EPOCH = 3,       /* -ttt: nanoseconds since 1970-01-01 UTC */
    IODFG_CLOCK__N
};
const char *iodfg_clock_name(enum iodfg_clock clock);
/* Times of cases with different clocks cannot be compared: how many cases (of the case mask
 * on, NULL = all) use each clock, into n[IODFG_CLOCK__N]; returns how many clocks are used. */
int iodfg_eventlog_clocks(const struct iodfg_eventlog *log, const uint8_t *case_on, uint32_t *n);
/* The clock most cases with events use over n[] from iodfg_eventlog_clocks (several masks may
 * be summed first); ties go to the first of time of day, epoch, relative, none. */
enum iodfg_clock iodfg_clock_majority(const uint32_t *n);
/* Clear in mask (case_count bytes) the cases whose clock is not clock: a measure over time
 * (bins, a shared time axis) then covers the cases of one clock. Returns how many it cleared. */
uint32_t iodfg_eventlog_keep_clock(const struct iodfg_eventlog *log, uint8_t *mask,
                                   enum iodfg_clock clock);
/* The earliest start of the log's cases, INT64_MAX when it has no events. */
int64_t iodfg_eventlog_earliest_start(const struct iodfg_eventlog *log);
/* Where relative times (--time 1.5..2) count from: the earliest start (0 without events), or
 * the origin given, which a part of a larger log (one process's cases in an MPI job) takes
 * from the whole log. */
int64_t iodfg_eventlog_time_origin(const struct iodfg_eventlog *log);
void iodfg_eventlog_set_time_origin(struct iodfg_eventlog *log, int64_t ns);

/* Shift every case's times (events and handles) so that its first event starts at 0 and call
 * its clock relative: the cases are then compared as if they had started together (--align
 * start). 0, or -1 when out of memory (nothing changed). */
int iodfg_eventlog_align_starts(struct iodfg_eventlog *log);

/* Line kinds counted per case: id, short name, description. */
#define IODFG_COUNT_LIST(X)                                                                        \
    X(EVENTS, "events", "system-call events kept")                                                 \
    X(MERGED, "merged", "unfinished/resumed pairs merged into one event")                          \
    X(UNMATCHED, "unmatched", "unfinished or resumed halves without a partner (kept as events)")   \
    X(NO_DURATION, "no_duration", "events without a -T duration")                                  \
    X(SIGNALS, "signals", "signal lines (--- SIG... ---)")                                         \
    X(EXITS, "exits", "exit lines (+++ exited/killed +++)")                                        \
    X(RESTARTS, "restarts", "calls interrupted with ERESTART* (ignored)")                          \
    X(NOTICES, "notices", "strace notices (attached, detached, ...)")                              \
    X(BLANK, "blank", "empty lines")                                                               \
    X(UNPARSABLE, "unparsable", "lines that could not be parsed")

enum iodfg_count {
#define IODFG_X_COUNT(id, name, text) IODFG_COUNT_##id,
    IODFG_COUNT_LIST(IODFG_X_COUNT)
#undef IODFG_X_COUNT
        IODFG_COUNT__N
};
const char *iodfg_count_name(enum iodfg_count c);
const char *iodfg_count_text(enum iodfg_count c);

/* How a case got its attributes from its file name. */
enum iodfg_naming { IODFG_NAMING_PATTERN = 0, IODFG_NAMING_FILENAME = 1 };

struct iodfg_case_info {
    uint32_t name, cid, host, rid, source; /* string ids in the log's pool */
    enum iodfg_naming naming;
    enum iodfg_clock clock;
    uint64_t lines; /* lines read */
    uint64_t bytes; /* bytes read */
    uint64_t counts[IODFG_COUNT__N];
};

/* One event as pushed into a log (ids already in the log's pool). */
struct iodfg_event {
    int64_t start_ns, dur_ns, size, offset, req;
    uint32_t key; /* (call, path) key id */
    uint32_t err; /* string id of the errno name, IODFG_STR_EMPTY when the call succeeded */
    int32_t pid, fd;
    uint32_t handle; /* handle id in the log (iodfg/handles.h), IODFG_NO_HANDLE for none */
};

/* What an event did to its handle (set by the parser's descriptor tracking). */
enum iodfg_handle_op {
    IODFG_HOP_NONE = 0, /* no handle */
    IODFG_HOP_USE,      /* any other use (fstat, fsync, fcntl, ...) */
    IODFG_HOP_READ,     /* data read through it: size counts as bytes read */
    IODFG_HOP_WRITE,    /* data written through it */
    IODFG_HOP_CREATE,   /* the event created it (open, dup, socket, pipe) */
    IODFG_HOP_CLOSE,    /* the event destroyed it */
};

/* One event as a parser sees it: strings are views into the parser's buffers. */
struct iodfg_raw_event {
    int64_t start_ns, dur_ns, size, offset, req;
    int32_t pid, fd;
    const char *call, *path, *err;
    size_t call_len, path_len, err_len;
    uint64_t seq; /* position in the input (line number of its first line) for stable order */
    /* Handle of the event, numbered from 1 within the case (0 = none); hop says what the event
     * did to it. hdef[0..ndef) define handles first seen at this event: they take the next
     * unused ids of the case, in order. hclosed[0..nclosed) are handles (case ids) that the
     * event closed besides its own (dup2 onto an open descriptor, close_range). */
    uint32_t handle;
    unsigned hop; /* enum iodfg_handle_op */
    unsigned ndef, nclosed;
    const struct iodfg_raw_handle *hdef;
    const uint32_t *hclosed;
};

/* Columns of a log. A column left out at creation is NULL. */
enum iodfg_column {
    IODFG_COL_START = 1u << 0,
    IODFG_COL_DUR = 1u << 1,
    IODFG_COL_SIZE = 1u << 2,
    IODFG_COL_OFFSET = 1u << 3,
    IODFG_COL_REQ = 1u << 4,
    IODFG_COL_KEY = 1u << 5,
    IODFG_COL_ERR = 1u << 6,
    IODFG_COL_PID = 1u << 7,
    IODFG_COL_FD = 1u << 8,
    IODFG_COL_HANDLE = 1u << 9,
    IODFG_COL_ALL = (1u << 10) - 1,
    /* Not a column: loading an event log also reads its handle table (iodfg/handles.h), which
     * IODFG_COL_HANDLE brings too. Without either the log has no handles. */
    IODFG_COL_HANDLE_TABLE = 1u << 10,
    /* Not a column either: loading also reads the log's strace -k stacks (iodfg/stacks.h), when
     * it has them. */
    IODFG_COL_STACKS = 1u << 11,
    /* what analysis needs: 32 bytes per event */
    IODFG_COL_ANALYSIS =
        IODFG_COL_START | IODFG_COL_DUR | IODFG_COL_SIZE | IODFG_COL_KEY | IODFG_COL_PID,
};

struct iodfg_columns {
    int64_t *start_ns, *dur_ns, *size, *offset, *req;
    uint32_t *key, *err;
    int32_t *pid, *fd;
    uint32_t *handle;
};

/* Free every array of cols (they were malloc'd) and set them to NULL. */
void iodfg_columns_free(struct iodfg_columns *cols);

/* Kind of thing a path names; non-files are counted by kind, not by inode. */
enum iodfg_path_kind {
    IODFG_PATH_NONE = 0, /* the call named no file */
    IODFG_PATH_FILE,
    IODFG_PATH_SOCKET,
    IODFG_PATH_PIPE,
    IODFG_PATH_ANON, /* anon_inode:[eventfd] and friends */
    IODFG_PATH_OTHER,
};
enum iodfg_path_kind iodfg_path_kind_of(const char *path, size_t len);
const char *iodfg_path_kind_name(enum iodfg_path_kind kind);

/* Where a file lives (Tschüter et al. 2018, Fig. 3): a node-local or a shared (global) file system,
 * or a virtual one (/proc, /sys, /dev). IODFG_SCOPE_NONE for keys without a file. */
enum iodfg_scope {
    IODFG_SCOPE_NONE = 0,
    IODFG_SCOPE_UNKNOWN,
    IODFG_SCOPE_LOCAL,
    IODFG_SCOPE_GLOBAL,
    IODFG_SCOPE_VIRTUAL,
};
#define IODFG_SCOPE__N 5
const char *iodfg_scope_name(enum iodfg_scope scope);

/* A key: (call, path, layer) plus attributes computed once per key. */
struct iodfg_key {
    uint32_t call, path;
    uint32_t layer;  /* string id of the I/O layer (paradigm); "" = POSIX (strace input) */
    uint32_t fs;     /* string id of the mount point holding path, "" = not classified */
    uint32_t fstype; /* string id of its file-system type (ext4, lustre, ...), "" = unknown */
    uint8_t kind;    /* enum iodfg_path_kind of path */
    uint8_t scope;   /* enum iodfg_scope */
    uint32_t site;   /* string id of the call site's function (strace -k; iodfg/callsites.h),
                        "" = none: set only by iodfg_eventlog_split_keys */
};

/* Name of a layer string: "POSIX" for the empty string, else the string itself. */
#define IODFG_LAYER_DEFAULT "POSIX"

/* An empty log keeping the given columns (enum iodfg_column bits). NULL when out of memory. */
struct iodfg_eventlog *iodfg_eventlog_new(unsigned columns);
/* The same, taking ownership of pool (freed with the log, or at once on failure). */
struct iodfg_eventlog *iodfg_eventlog_new_with_pool(unsigned columns,
                                                    struct iodfg_strpool *pool_take);
void iodfg_eventlog_free(struct iodfg_eventlog *log);
/* Empty log (cases, events, keys, handles, strings) keeping its memory, to build the next
 * file's cases without faulting in fresh pages. */
void iodfg_eventlog_clear(struct iodfg_eventlog *log);

/* Accessors; pointers are borrowed until the log changes or is freed. */
struct iodfg_strpool *iodfg_eventlog_pool(const struct iodfg_eventlog *log);
unsigned iodfg_eventlog_column_mask(const struct iodfg_eventlog *log);
uint64_t iodfg_eventlog_event_count(const struct iodfg_eventlog *log);
uint32_t iodfg_eventlog_case_count(const struct iodfg_eventlog *log);
const struct iodfg_case_info *iodfg_eventlog_case(const struct iodfg_eventlog *log, uint32_t c);
/* case_count+1 offsets: events of case c are [off[c], off[c+1]). */
const uint64_t *iodfg_eventlog_case_offsets(const struct iodfg_eventlog *log);
const struct iodfg_columns *iodfg_eventlog_columns(const struct iodfg_eventlog *log);
uint32_t iodfg_eventlog_key_count(const struct iodfg_eventlog *log);
const struct iodfg_key *iodfg_eventlog_keys(const struct iodfg_eventlog *log);
/* Bytes of memory held (columns, keys, cases, pool). */
size_t iodfg_eventlog_memory(const struct iodfg_eventlog *log);

/* Find or add the key (call, path) of the default layer, both string ids of this log's pool. */
int iodfg_eventlog_key(struct iodfg_eventlog *log, uint32_t call, uint32_t path, uint32_t *key);
/* The same with a layer (string id; IODFG_STR_EMPTY = POSIX). */
int iodfg_eventlog_key_layer(struct iodfg_eventlog *log, uint32_t call, uint32_t path,
                             uint32_t layer, uint32_t *key);
/* The same with a call site (string id; IODFG_STR_EMPTY = none). */
int iodfg_eventlog_key_site(struct iodfg_eventlog *log, uint32_t call, uint32_t path,
                            uint32_t layer, uint32_t site, uint32_t *key);
/* Set the file-system attributes of key (string ids of this log's pool). */
void iodfg_eventlog_key_set_fs(struct iodfg_eventlog *log, uint32_t key, uint32_t fs,
                               uint32_t fstype, enum iodfg_scope scope);

/* Building: begin a case, push its events, end it (which sorts them by start, ties in seq
 * order). Strings in info must be ids of this log's pool. All return 0 or -1 with err set. */
int iodfg_eventlog_reserve(struct iodfg_eventlog *log, uint64_t events, struct iodfg_error *err);
/* The same, and room for one case of that many events (its input order too): a log that will
 * hold one case, as a file's, then grows nothing while it is built. */
int iodfg_eventlog_reserve_case(struct iodfg_eventlog *log, uint64_t events,
                                struct iodfg_error *err);
int iodfg_eventlog_begin_case(struct iodfg_eventlog *log, const struct iodfg_case_info *info,
                              struct iodfg_error *err);
int iodfg_eventlog_push(struct iodfg_eventlog *log, const struct iodfg_event *ev, uint64_t seq,
                        struct iodfg_error *err);
/* Intern the strings of ev and push it. */
int iodfg_eventlog_push_raw(struct iodfg_eventlog *log, const struct iodfg_raw_event *ev,
                            struct iodfg_error *err);
/* The case being built, to update its counts. NULL outside begin/end. */
struct iodfg_case_info *iodfg_eventlog_open_case(struct iodfg_eventlog *log);
int iodfg_eventlog_end_case(struct iodfg_eventlog *log, struct iodfg_error *err);

/* Append every case of src to dst, re-interning strings and keys. */
int iodfg_eventlog_append(struct iodfg_eventlog *dst, const struct iodfg_eventlog *src,
                          struct iodfg_error *err);

/* Replace the columns wholesale (used by loaders): takes ownership of the arrays in cols
 * (allocated with malloc), of offsets (case_count+1 entries) and of cases. */
int iodfg_eventlog_adopt(struct iodfg_eventlog *log, struct iodfg_columns *cols, uint64_t events,
                         struct iodfg_case_info *cases, uint64_t *offsets, uint32_t case_count,
                         struct iodfg_error *err);

/* Replace the handle table of a log that has none (used by loaders): takes ownership of handles
 * (count rows, allocated with malloc; row h-1 is handle h), whose strings must be ids of the log's
 * pool and whose parents earlier handles. */
int iodfg_eventlog_adopt_handles(struct iodfg_eventlog *log, struct iodfg_handle *handles,
                                 uint32_t count, struct iodfg_error *err);

#endif
