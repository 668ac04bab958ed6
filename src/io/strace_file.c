/* SPDX-License-Identifier: MIT */
/* strace trace parser: clocks, unfinished/resumed merging, per-call fields, counting. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iodfg/error.h"
#include "iodfg/strace.h"

#include "strace_calls.h"
#include "strace_handles.h"
#include "strace_priv.h"

#define NS_PER_DAY (86400LL * 1000000000LL)
#define EPOCH_MIN_NS (100000000LL * 1000000000LL) // 1973: smaller numbers are -r deltas
#define MAX_PENDING 4096

struct pending {
    int32_t pid;
    int has_pid;
    struct text name;
    struct text args; // argument text before "<unfinished ...>"
    int64_t start_ns;
    uint64_t seq;
    unsigned long args_col; // column of args on line seq
};

/* Where a call's argument text lies, to name an argument that cannot be read: args[0, n1) on
 * line1 from column col1, the rest (the text after "resumed>") on line2 from col2. */
struct args_pos {
    uint64_t line1, line2;
    unsigned long col1, col2;
    size_t n1;
};

// Recently seen call names and their table entries (NULL = no special meaning).
struct call_cache {
    char name[24];
    unsigned char len; // 0 = empty slot
    const struct call_info *ci;
};

// The same keyed by a name of up to 8 bytes read as one word (strace_line.name_w).
struct call_word {
    uint64_t w; // 0 = empty slot
    const struct call_info *ci;
};

struct parser {
    struct call_cache calls[16];
    struct call_word words[32];
    iodfg_emit_fn emit;
    iodfg_frame_fn frame; // NULL: frame lines are counted, not delivered
    int completes;        // the line being read completes a call (a stack may follow it)
    int exit_line;        // the line being read is "+++ exited ... +++" of pid line_pid
    int signal_line;      // ... "--- SIGxxx ---": strace -k prints where it was delivered
    int32_t line_pid;
    uint64_t frames_seq; // seq of the event the frame lines below belong to
    uint64_t emit_seq;   // seq of the event emitted last
    int emit_noreturn;   // ... a call that did not return ("= ?": exit, exit_group)
    // Calls that did not return, by pid: strace prints their stack after the exit line.
    struct noreturn {
        int32_t pid;
        uint64_t seq; // 0 = empty slot
    } noret[16];
    unsigned noret_next;
    int frames_ok; // frame lines now: 0 orphans, 1 the stack of event frames_seq, 2 a
                   // signal's (counted, no event to attach them to)
    void *ctx;
    struct iodfg_strace_result *res;
    struct iodfg_error *err;
    int have_clock;
    int64_t day_ns, last_tod, rel_ns;
    char *scratch; // decoded paths
    size_t scratch_cap;
    char *joined; // unfinished + resumed text
    size_t joined_cap;
    struct pending *pend;
    size_t npend, pend_cap;
    struct text carry; // start of a line that strace split with an embedded notice
    char **blocks;     // joined lines, kept until the end (pending calls point into them)
    size_t nblocks;
    char *stash;         // owned copies of pending texts once the input block they were in goes
    uint64_t lineno;     // lines seen so far
    const char *line_at; // the line being read (for the columns of its arguments)
    size_t ticked;       // bytes of the current block reported to tick
    void (*tick)(void *tick_ctx, uint64_t bytes);
    void *tick_ctx;
    struct strace_handles handles; // descriptor tracking: the handle of each event
};

static int reserve(char **buf, size_t *cap, size_t need, struct iodfg_error *err)
{
    if (need <= *cap) {
        return 0;
    }
    size_t n = *cap ? *cap : 256;
    while (n < need) {
        n *= 2;
    }
    char *b = realloc(*buf, n);
    if (!b) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    *buf = b;
    *cap = n;
    return 0;
}

static void diag(struct parser *p, uint64_t line, unsigned long col, const char *msg)
{
    struct iodfg_strace_result *r = p->res;
    if (r->ndiags < IODFG_STRACE_MAX_DIAGS) {
        struct iodfg_strace_diag *d = &r->diags[r->ndiags++];
        d->line = line;
        d->col = col;
        size_t n = strlen(msg);
        if (n >= sizeof(d->msg)) {
            n = sizeof(d->msg) - 1;
        }
        memcpy(d->msg, msg, n);
        d->msg[n] = '\0';
    }
}

// Start time of a stamped line in the case's clock; -1 when the stamp kind does not fit.
static int line_time(struct parser *p, const struct strace_line *ln, int64_t *t)
{
    struct iodfg_strace_result *r = p->res;
    enum iodfg_clock want;
    if (ln->stamp == STAMP_NONE) {
        want = IODFG_CLOCK_NONE;
    } else if (ln->stamp == STAMP_TOD) {
        want = IODFG_CLOCK_TIME_OF_DAY;
    } else if (ln->has_rel || (ln->stamp_ns >= EPOCH_MIN_NS && !ln->stamp_padded)) {
        want = IODFG_CLOCK_EPOCH;
    } else {
        want = IODFG_CLOCK_RELATIVE;
    }
    if (!p->have_clock) {
        p->have_clock = 1;
        r->clock = want;
    } else if (want != r->clock) {
        return -1;
    }
    switch (want) {
    case IODFG_CLOCK_TIME_OF_DAY: {
        // Saturating: a crafted trace can roll over midnight on every other line.
        int64_t v = iodfg_sat_add(ln->stamp_ns, p->day_ns);
        if (v < iodfg_sat_add(p->last_tod, -NS_PER_DAY / 2)) { // past midnight
            p->day_ns = iodfg_sat_add(p->day_ns, NS_PER_DAY);
            v = iodfg_sat_add(v, NS_PER_DAY);
        }
        p->last_tod = v;
        *t = v;
        break;
    }
    case IODFG_CLOCK_RELATIVE:
        p->rel_ns = iodfg_sat_add(p->rel_ns, ln->stamp_ns);
        *t = p->rel_ns;
        break;
    case IODFG_CLOCK_EPOCH:
        *t = ln->stamp_ns;
        break;
    case IODFG_CLOCK_NONE:
    case IODFG_CLOCK__N:
        *t = 0;
        break;
    }
    return 0;
}

// Decode a path (optionally below a directory) into the scratch buffer.
static int decode_path(struct parser *p, struct text dir, struct text name,
                       struct iodfg_raw_event *ev)
{
    if (!dir.n && !memchr(name.p, '\\', name.n)) { // nothing to decode: point into the line
        ev->path = name.p;
        ev->path_len = name.n;
        return 0;
    }
    if (reserve(&p->scratch, &p->scratch_cap, dir.n + name.n + 2, p->err)) {
        return -1;
    }
    size_t o = 0;
    if (dir.n) {
        o = strace_unescape(dir.p, dir.n, p->scratch);
        if (name.n) {
            p->scratch[o++] = '/';
        }
    }
    o += strace_unescape(name.p, name.n, p->scratch + o);
    ev->path = p->scratch;
    ev->path_len = o;
    return 0;
}

static int fill_path(struct parser *p, const struct strace_line *ln, struct text args,
                     unsigned flags, struct iodfg_raw_event *ev)
{
    struct strace_arg0 a;
    strace_arg0_parse(args.p, args.n, &a);
    if (a.has_fd) {
        ev->fd = a.fd;
    }
    struct text none = {NULL, 0};
    if ((flags & IODFG_CALL_OPEN) && ln->ret_annot.n) {
        return decode_path(p, none, ln->ret_annot, ev);
    }
    size_t end = (flags & IODFG_CALL_DIRFD) && (a.has_fd || a.at_fdcwd)
                     ? strace_arg0_end(args.p, args.n, &a)
                     : args.n;
    if (end < args.n) {
        size_t b = end + 1;
        while (b < args.n && args.p[b] == ' ') {
            b++;
        }
        struct strace_arg0 a1;
        strace_arg0_parse(args.p + b, args.n - b, &a1);
        if (a1.string.p) {
            int absolute = a1.string.n && a1.string.p[0] == '/';
            return decode_path(p, absolute ? none : a.annot, a1.string, ev);
        }
    }
    if (a.annot.n) {
        if (a.annot_plain) { // checked by the annotation scan already
            ev->path = a.annot.p;
            ev->path_len = a.annot.n;
            return 0;
        }
        return decode_path(p, none, a.annot, ev);
    }
    if (a.string.p && (flags & (IODFG_CALL_PATH0 | IODFG_CALL_DIRFD))) {
        return decode_path(p, none, a.string, ev);
    }
    return 0;
}

static const struct call_info *lookup_call(struct parser *p, struct text name, uint64_t name_w)
{
    if (name_w) {
        struct call_word *c = &p->words[(name_w * 0x9E3779B97F4A7C15ull) >> 59];
        if (c->w != name_w) {
            c->w = name_w;
            c->ci = strace_call_lookup(name.p, name.n);
        }
        return c->ci;
    }
    if (name.n == 0 || name.n >= sizeof(p->calls[0].name)) {
        return strace_call_lookup(name.p, name.n);
    }
    struct call_cache *c =
        &p->calls[((unsigned)name.p[0] * 7u + (unsigned)name.p[name.n - 1] + name.n) & 15u];
    if (c->len != name.n || memcmp(c->name, name.p, name.n) != 0) {
        memcpy(c->name, name.p, name.n);
        c->len = (unsigned char)name.n;
        c->ci = strace_call_lookup(name.p, name.n);
    }
    return c->ci;
}

/* Number argument k (from the end) of the call into *v: 0; or 1 when it cannot be what strace
 * shows (negative, or past what its C type holds) in a call that succeeded: the line is then
 * counted as unparsable, named at the argument. A failed call may show anything it was given:
 * then the value is unknown. size: a byte count (size_t), else an offset (loff_t). */
static int num_arg(struct parser *p, const struct strace_line *ln, struct text args, unsigned k,
                   int size, const struct args_pos *ap, int64_t *v)
{
    size_t at = 0;
    int rc = strace_arg_number(args, k, size, v, &at);
    if (rc == 0 || ln->err.n || (ln->has_ret && !ln->ret_known)) {
        return 0;
    }
    const char *what = size ? (rc == -1 ? "expected a byte count that fits 64 bits"
                                        : "expected a byte count of 0 or more")
                            : (rc == -1 ? "expected an offset that fits 63 bits"
                                        : "expected an offset of 0 or more");
    uint64_t line = at < ap->n1 ? ap->line1 : ap->line2;
    unsigned long col =
        at < ap->n1 ? (ap->col1 ? ap->col1 + at : 0) : (ap->col2 ? ap->col2 + (at - ap->n1) : 0);
    p->res->counts[IODFG_COUNT_UNPARSABLE]++;
    diag(p, line, col ? col : 1, what);
    return 1;
}

// Turn a split line (or a merged pair) into an event and hand it to the sink.
static int emit_event(struct parser *p, const struct strace_line *ln, struct text name,
                      struct text args, int32_t pid, int64_t start, uint64_t seq,
                      const struct args_pos *ap)
{
    const struct call_info *ci = lookup_call(p, name, name.p == ln->name.p ? ln->name_w : 0);
    unsigned flags = ci ? ci->flags : 0;
    struct iodfg_raw_event ev = {
        .start_ns = start,
        .dur_ns = ln->dur_ns >= 0 ? ln->dur_ns : IODFG_UNKNOWN,
        .size = IODFG_UNKNOWN,
        .offset = IODFG_UNKNOWN,
        .req = IODFG_UNKNOWN,
        .pid = pid,
        .fd = IODFG_NO_FD,
        .call = name.p,
        .call_len = name.n,
        .path = "",
        .err = ln->err.p,
        .err_len = ln->err.n,
        .seq = seq,
    };
    if (fill_path(p, ln, args, flags, &ev)) {
        return -1;
    }
    if (ln->ret_known && ln->ret >= 0) {
        if (flags & IODFG_CALL_SIZE) {
            ev.size = ln->ret;
        }
        if (flags & IODFG_CALL_SEEK) {
            ev.offset = ln->ret;
        }
        if (flags & IODFG_CALL_OPEN && ln->ret <= 0x7fffffff) {
            ev.fd = (int32_t)ln->ret;
        }
    }
    if ((ci && ci->req_arg && num_arg(p, ln, args, ci->req_arg, 1, ap, &ev.req)) ||
        (ci && ci->off_arg && num_arg(p, ln, args, ci->off_arg, 0, ap, &ev.offset))) {
        return 0;
    }
    if (ci && ci->hk && strace_handles_track(&p->handles, ci, ln, args, &ev)) {
        return iodfg_error_set(p->err, IODFG_E_NOMEM, NULL);
    }
    struct iodfg_strace_result *r = p->res;
    r->counts[IODFG_COUNT_EVENTS]++;
    p->emit_seq = seq;
    p->emit_noreturn = ln->has_ret && !ln->ret_known;
    // a call that never returned ("= ?": exit_group, a successful execve) has no duration
    if (ev.dur_ns == IODFG_UNKNOWN && (!ln->has_ret || ln->ret_known)) {
        r->counts[IODFG_COUNT_NO_DURATION]++;
    }
    return p->emit(p->ctx, &ev, p->err);
}

static struct pending *find_pending(struct parser *p, const struct strace_line *ln)
{
    for (size_t i = 0; i < p->npend; i++) {
        if (p->pend[i].pid == ln->pid && p->pend[i].has_pid == ln->has_pid) {
            return &p->pend[i];
        }
    }
    return NULL;
}

static int flush_pending(struct parser *p, struct pending *pe)
{
    struct strace_line empty;
    strace_line_reset(&empty);
    p->res->counts[IODFG_COUNT_UNMATCHED]++;
    struct args_pos ap = {pe->seq, pe->seq, pe->args_col, 0, pe->args.n};
    int rc = emit_event(p, &empty, pe->name, pe->args, pe->pid, pe->start_ns, pe->seq, &ap);
    *pe = p->pend[--p->npend];
    return rc;
}

static int on_unfinished(struct parser *p, const struct strace_line *ln, int64_t t, uint64_t seq)
{
    struct pending *old = find_pending(p, ln);
    if (old) {
        if (old->name.n == ln->name.n && memcmp(old->name.p, ln->name.p, ln->name.n) == 0 &&
            ln->body.p[0] == '<') {
            return 0; // "<... x resumed> <unfinished ...>": the call is still pending
        }
        if (flush_pending(p, old)) {
            return -1;
        }
    }
    if (p->npend == MAX_PENDING && flush_pending(p, &p->pend[0])) {
        return -1;
    }
    if (p->npend == p->pend_cap) {
        size_t cap = p->pend_cap ? p->pend_cap * 2 : 16;
        struct pending *n = realloc(p->pend, cap * sizeof(*n));
        if (!n) {
            return iodfg_error_set(p->err, IODFG_E_NOMEM, NULL);
        }
        p->pend = n;
        p->pend_cap = cap;
    }
    const struct call_info *ci = lookup_call(p, ln->name, ln->name_w);
    if (ci && ci->hk == HK_FORK) {
        strace_handles_fork_pending(&p->handles, ln->pid, ln->args);
    }
    struct pending *pe = &p->pend[p->npend++];
    pe->pid = ln->pid;
    pe->has_pid = ln->has_pid;
    pe->name = ln->name;
    pe->args = ln->args;
    pe->start_ns = t;
    pe->seq = seq;
    pe->args_col = p->line_at ? (unsigned long)(ln->args.p - p->line_at) + 1 : 0;
    return 0;
}

static int on_resumed(struct parser *p, const struct strace_line *ln, int64_t t, uint64_t seq)
{
    struct iodfg_strace_result *r = p->res;
    struct pending *pe = find_pending(p, ln);
    if (pe && (pe->name.n != ln->name.n || memcmp(pe->name.p, ln->name.p, ln->name.n) != 0)) {
        if (flush_pending(p, pe)) {
            return -1;
        }
        pe = NULL;
    }
    if (!pe) {
        if (ln->restart) {
            r->counts[IODFG_COUNT_RESTARTS]++;
            return 0;
        }
        r->counts[IODFG_COUNT_UNMATCHED]++;
        int64_t start = ln->dur_ns >= 0 && t >= ln->dur_ns ? t - ln->dur_ns : t;
        struct text no_args = {"", 0};
        struct args_pos ap = {seq, seq, 0, 0, 0};
        return emit_event(p, ln, ln->name, no_args, ln->pid, start, seq, &ap);
    }
    // Re-split "args-before-unfinished" + "text-after-resumed>" as one complete call.
    const char *rest = ln->args.p;
    size_t rest_n = (size_t)(ln->body.p + ln->body.n - rest);
    if (reserve(&p->joined, &p->joined_cap, pe->args.n + rest_n + 1, p->err)) {
        return -1;
    }
    memcpy(p->joined, pe->args.p, pe->args.n);
    memcpy(p->joined + pe->args.n, rest, rest_n);
    struct strace_line whole;
    strace_line_reset(&whole);
    struct pending got = *pe;
    *pe = p->pend[--p->npend];
    if (strace_tail_split(p->joined, got.args.n + rest_n, &whole)) {
        whole = *ln; // keep what the resumed half said
        whole.args.p = got.args.p;
        whole.args.n = got.args.n;
    }
    if (whole.restart) {
        r->counts[IODFG_COUNT_RESTARTS]++;
        return 0;
    }
    r->counts[IODFG_COUNT_MERGED]++;
    struct args_pos ap = {got.seq, seq, got.args_col,
                          p->line_at ? (unsigned long)(rest - p->line_at) + 1 : 0, got.args.n};
    return emit_event(p, &whole, got.name, whole.args, got.pid, got.start_ns, got.seq, &ap);
}

// In stderr mode strace may print "strace: Process N attached" in the middle of a line:
// remember the part before it, to be joined with the next line.
static int split_by_notice(struct parser *p, const char *s, size_t n)
{
    static const char mark[] = "strace: Process ";
    const char *m = memmem(s, n, mark, sizeof(mark) - 1);
    if (!m || m == s) {
        return 0;
    }
    p->carry.p = s;
    p->carry.n = (size_t)(m - s);
    p->res->counts[IODFG_COUNT_NOTICES]++;
    return 1;
}

static const char *join_carry(struct parser *p, const char *s, size_t *n)
{
    char **nb = realloc(p->blocks, (p->nblocks + 1) * sizeof(*nb));
    char *line = malloc(p->carry.n + *n + 1);
    if (nb) {
        p->blocks = nb;
    }
    if (!nb || !line) {
        free(line);
        iodfg_error_set(p->err, IODFG_E_NOMEM, NULL);
        return NULL;
    }
    memcpy(line, p->carry.p, p->carry.n);
    memcpy(line + p->carry.n, s, *n);
    p->blocks[p->nblocks++] = line;
    *n += p->carry.n;
    p->carry.n = 0;
    p->carry.p = NULL;
    return line;
}

static void r_unparsable(struct parser *p, uint64_t lineno)
{
    p->res->counts[IODFG_COUNT_UNPARSABLE]++;
    diag(p, lineno, 1, "expected the rest of a line that a strace notice interrupted");
}

static int on_line_body(struct parser *p, const char *s, size_t n, uint64_t lineno)
{
    struct iodfg_strace_result *r = p->res;
    if (p->carry.p && (s = join_carry(p, s, &n)) == NULL) {
        return -1;
    }
    struct strace_line ln;
    p->line_at = s;
    strace_line_split(s, n, &ln);
    p->completes = ln.kind == LINE_EVENT || ln.kind == LINE_RESUMED;
    p->exit_line = ln.kind == LINE_EXIT;
    p->signal_line = ln.kind == LINE_SIGNAL;
    p->line_pid = ln.pid;
    if (ln.kind == LINE_BAD && split_by_notice(p, s, n)) {
        return 0;
    }
    int64_t t = 0;
    // strace writes its own notices without pid or timestamp, whatever the format.
    int timed = ln.kind != LINE_BAD && ln.kind != LINE_BLANK &&
                !(ln.kind == LINE_NOTICE && ln.stamp == STAMP_NONE);
    if (timed && line_time(p, &ln, &t)) {
        diag(p, lineno, 1, "expected the same timestamp format as the first line");
        r->counts[IODFG_COUNT_UNPARSABLE]++;
        return 0;
    }
    switch (ln.kind) {
    case LINE_EVENT:
        if (ln.restart) {
            r->counts[IODFG_COUNT_RESTARTS]++;
            return 0;
        }
        struct args_pos ap = {lineno, lineno, (unsigned long)(ln.args.p - s) + 1, 0, ln.args.n};
        return emit_event(p, &ln, ln.name, ln.args, ln.pid, t, lineno, &ap);
    case LINE_UNFINISHED:
        return on_unfinished(p, &ln, t, lineno);
    case LINE_RESUMED:
        return on_resumed(p, &ln, t, lineno);
    case LINE_SIGNAL:
        r->counts[IODFG_COUNT_SIGNALS]++;
        return 0;
    case LINE_EXIT:
        r->counts[IODFG_COUNT_EXITS]++;
        return 0;
    case LINE_NOTICE:
        r->counts[IODFG_COUNT_NOTICES]++;
        return 0;
    case LINE_BLANK:
        r->counts[IODFG_COUNT_BLANK]++;
        return 0;
    case LINE_BAD:
        break;
    }
    r->counts[IODFG_COUNT_UNPARSABLE]++;
    if (ln.bad_num.n && ln.bad_at == ln.bad_num.p) { // name the number (its start if long)
        char msg[120];
        int k = ln.bad_num.n > 40 ? 37 : (int)ln.bad_num.n;
        snprintf(msg, sizeof(msg), "the return value %.*s%s is out of range (more than 64 bits)", k,
                 ln.bad_num.p, ln.bad_num.n > 40 ? "..." : "");
        diag(p, lineno, ln.bad_col, msg);
        return 0;
    }
    diag(p, lineno, ln.bad_col, ln.expected);
    return 0;
}

// A strace -k frame line: part of the stack of the call completed on the line above it.
static int on_frame(struct parser *p, const char *s, size_t n, uint64_t lineno)
{
    struct iodfg_strace_result *r = p->res;
    struct iodfg_raw_frame fr;
    const char *bad = strace_frame_split(s, n, &fr);
    if (bad || !p->frames_ok) {
        r->counts[IODFG_COUNT_UNPARSABLE]++;
        diag(p, lineno, bad ? 4 : 2, bad ? bad : "expected a call above this stack frame line");
        return 0;
    }
    r->frames++;
    fr.seq = p->frames_seq;
    return p->frame && p->frames_ok == 1 ? p->frame(p->ctx, &fr, p->err) : 0;
}

static int on_line(struct parser *p, const char *s, size_t n, uint64_t lineno)
{
    struct iodfg_strace_result *r = p->res;
    if (!p->carry.p && strace_is_frame(s, n)) {
        return on_frame(p, s, n, lineno);
    }
    uint64_t events = r->counts[IODFG_COUNT_EVENTS];
    p->completes = p->exit_line = p->signal_line = 0;
    int rc = on_line_body(p, s, n, lineno);
    // Only a completed call has a stack (strace prints none after "<unfinished ...>"); a
    // thread's last call ("<... exit resumed>) = ?") gets its stack after its exit line.
    p->frames_ok = rc == 0 && p->completes && r->counts[IODFG_COUNT_EVENTS] > events;
    if (p->frames_ok) {
        p->frames_seq = p->emit_seq;
        if (p->emit_noreturn) {
            p->noret[p->noret_next++ % 16] = (struct noreturn){p->line_pid, p->emit_seq};
        }
    } else if (rc == 0 && p->exit_line) {
        for (unsigned i = 0; i < 16; i++) {
            if (p->noret[i].seq && p->noret[i].pid == p->line_pid) {
                p->frames_ok = 1;
                p->frames_seq = p->noret[i].seq;
                p->noret[i].seq = 0;
                break;
            }
        }
    } else if (rc == 0 && p->signal_line) {
        p->frames_ok = 2; // counted, not an event's
    }
    return rc;
}

int iodfg_strace_parse(const char *buf, size_t len, iodfg_emit_fn emit, void *ctx,
                       struct iodfg_strace_result *res, struct iodfg_error *err)
{
    return iodfg_strace_parse_ticked(buf, len, emit, ctx, NULL, NULL, res, err);
}

static void parser_init(struct parser *p, iodfg_emit_fn emit, void *ctx,
                        void (*tick)(void *tick_ctx, uint64_t bytes), void *tick_ctx,
                        struct iodfg_strace_result *res, struct iodfg_error *err)
{
    memset(res, 0, sizeof(*res));
    memset(p, 0, sizeof(*p));
    p->emit = emit;
    p->ctx = ctx;
    p->res = res;
    p->err = err;
    p->tick = tick;
    p->tick_ctx = tick_ctx;
    strace_handles_init(&p->handles);
}

// Parse the lines of buf[0..len); a last line without a newline counts only when final.
// Returns 0 or -1, and in *used how far the complete lines went.
static int parser_lines(struct parser *p, const char *buf, size_t len, int final, size_t *used)
{
    int rc = 0;
    size_t pos = 0;
    p->ticked = 0;
    while (pos < len && rc == 0) {
        const char *nl = memchr(buf + pos, '\n', len - pos);
        if (!nl && !final) {
            break;
        }
        size_t end = nl ? (size_t)(nl - buf) : len;
        p->lineno++;
        rc = on_line(p, buf + pos, end - pos, p->lineno);
        if (p->tick && (end >> 20) != (pos >> 20)) {
            p->tick(p->tick_ctx, (end >> 20 << 20) - p->ticked);
            p->ticked = end >> 20 << 20;
        }
        pos = end + 1;
    }
    if (pos > len) {
        pos = len;
    }
    if (p->tick && pos > p->ticked) {
        p->tick(p->tick_ctx, pos - p->ticked);
    }
    *used = pos;
    return rc;
}

// The input block is about to go: copy what pending calls and a carried line half point to.
static int parser_rebase(struct parser *p)
{
    size_t need = p->carry.n;
    for (size_t i = 0; i < p->npend; i++) {
        need += p->pend[i].name.n + p->pend[i].args.n;
    }
    if (need == 0 && !p->carry.p) {
        free(p->stash);
        p->stash = NULL;
        return 0;
    }
    char *st = malloc(need + 1), *o = st;
    if (!st) {
        return iodfg_error_set(p->err, IODFG_E_NOMEM, NULL);
    }
    for (size_t i = 0; i < p->npend; i++) {
        struct text *t[2] = {&p->pend[i].name, &p->pend[i].args};
        for (int k = 0; k < 2; k++) {
            memcpy(o, t[k]->p, t[k]->n);
            t[k]->p = o;
            o += t[k]->n;
        }
    }
    if (p->carry.p) {
        memcpy(o, p->carry.p, p->carry.n);
        p->carry.p = o;
    }
    free(p->stash);
    p->stash = st;
    return 0;
}

static int parser_finish(struct parser *p, int rc, uint64_t bytes)
{
    // Calls still unfinished at the end of the trace are kept, without a duration.
    while (rc == 0 && p->npend) {
        rc = flush_pending(p, &p->pend[0]);
    }
    if (rc == 0 && p->carry.p) { // the split line never got its end
        r_unparsable(p, p->lineno);
    }
    p->res->lines = p->lineno;
    p->res->bytes = bytes;
    for (size_t i = 0; i < p->nblocks; i++) {
        free(p->blocks[i]);
    }
    free(p->blocks);
    free(p->stash);
    free(p->scratch);
    free(p->joined);
    free(p->pend);
    strace_handles_fini(&p->handles);
    return rc;
}

int iodfg_strace_parse_ticked(const char *buf, size_t len, iodfg_emit_fn emit, void *ctx,
                              void (*tick)(void *tick_ctx, uint64_t bytes), void *tick_ctx,
                              struct iodfg_strace_result *res, struct iodfg_error *err)
{
    struct parser p;
    parser_init(&p, emit, ctx, tick, tick_ctx, res, err);
    size_t used;
    int rc = parser_lines(&p, buf, len, 1, &used);
    return parser_finish(&p, rc, len);
}

int iodfg_strace_parse_frames(const char *buf, size_t len, iodfg_emit_fn emit, iodfg_frame_fn frame,
                              void *ctx, struct iodfg_strace_result *res, struct iodfg_error *err)
{
    struct parser p;
    parser_init(&p, emit, ctx, NULL, NULL, res, err);
    p.frame = frame;
    size_t used;
    int rc = parser_lines(&p, buf, len, 1, &used);
    return parser_finish(&p, rc, len);
}

#ifndef STRACE_BLOCK // tests build with tiny blocks to put every line across a block edge
#define STRACE_BLOCK (256u << 10) // read size: a block stays in the L2 cache while it is parsed
#endif
#define BLOCK ((size_t)STRACE_BLOCK)

size_t iodfg_strace_line_max = (size_t)64 << 20;

/* A line longer than iodfg_strace_line_max (have bytes so far, no line break yet): counted as
 * unparsable, and its bytes dropped up to its end (*skipping until a line break is read), so
 * that a file without line breaks (a device, a binary file) cannot take all the memory. */
static void drop_long_line(struct parser *p, size_t *have, int *skipping)
{
    p->lineno++;
    p->res->counts[IODFG_COUNT_UNPARSABLE]++;
    char msg[96];
    size_t max = iodfg_strace_line_max;
    snprintf(msg, sizeof(msg), "expected a line of at most %zu %s, not a longer one",
             max >= (1u << 20) ? max >> 20 : max >> 10, max >= (1u << 20) ? "MiB" : "KiB");
    diag(p, p->lineno, 1, msg);
    *have = 0;
    *skipping = 1;
}

/* While skipping a long line: drop buf[0, *have) up to its first line break (the rest is kept
 * for parsing, and the skip ends) or all of it. */
static void skip_to_line_end(char *buf, size_t *have, int *skipping)
{
    const char *nl = memchr(buf, '\n', *have);
    if (!nl) {
        *have = 0;
        return;
    }
    size_t past = (size_t)(nl - buf) + 1;
    memmove(buf, buf + past, *have - past);
    *have -= past;
    *skipping = 0;
}

int iodfg_strace_parse_fd(int fd, iodfg_emit_fn emit, void *ctx,
                          void (*tick)(void *tick_ctx, uint64_t bytes), void *tick_ctx,
                          struct iodfg_strace_result *res, struct iodfg_error *err)
{
    return iodfg_strace_parse_fd_frames(fd, emit, NULL, ctx, tick, tick_ctx, res, err);
}

int iodfg_strace_parse_fd_frames(int fd, iodfg_emit_fn emit, iodfg_frame_fn frame, void *ctx,
                                 void (*tick)(void *tick_ctx, uint64_t bytes), void *tick_ctx,
                                 struct iodfg_strace_result *res, struct iodfg_error *err)
{
    struct parser p;
    parser_init(&p, emit, ctx, tick, tick_ctx, res, err);
    p.frame = frame;
    size_t cap = BLOCK, have = 0;
    uint64_t total = 0;
    int skipping = 0;
    char *buf = malloc(cap);
    int rc = buf ? 0 : iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    while (rc == 0) {
        if (cap - have < BLOCK / 2) { // a long line: room for it and a block after it
            char *nb = cap < ((size_t)1 << 62) ? realloc(buf, cap * 2) : NULL;
            if (!nb) {
                rc = iodfg_error_set(err, IODFG_E_NOMEM, NULL);
                break;
            }
            buf = nb;
            cap *= 2;
        }
        // a block at a time, also into a grown buffer: a long line is seen within a block of
        // the line limit
        ssize_t n = read(fd, buf + have, cap - have < BLOCK ? cap - have : BLOCK);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            rc = iodfg_error_set(err, IODFG_E_IO, "cannot read: %s", strerror(errno));
            break;
        }
        if (n == 0) {
            size_t used;
            if (have && !skipping) {
                rc = parser_lines(&p, buf, have, 1, &used);
            }
            break;
        }
        total += (uint64_t)n;
        size_t before = have; // no line break in them: only the new bytes are searched
        have += (size_t)n;
        if (skipping) {
            skip_to_line_end(buf, &have, &skipping);
            before = 0;
        }
        // only complete lines now; the rest waits for the next read
        const char *nl = have > before ? memrchr(buf + before, '\n', have - before) : NULL;
        if (!nl) {
            if (have > iodfg_strace_line_max) {
                drop_long_line(&p, &have, &skipping);
            }
            continue;
        }
        size_t used, upto = (size_t)(nl - buf) + 1;
        rc = parser_lines(&p, buf, upto, 0, &used);
        if (rc == 0) {
            rc = parser_rebase(&p);
        }
        memmove(buf, buf + upto, have - upto);
        have -= upto;
    }
    rc = parser_finish(&p, rc, total); // pending calls may point into buf
    free(buf);
    return rc;
}

int iodfg_strace_sink_eventlog(void *ctx, const struct iodfg_raw_event *ev, struct iodfg_error *err)
{
    return iodfg_eventlog_push_raw(ctx, ev, err);
}

int iodfg_strace_frame_eventlog(void *ctx, const struct iodfg_raw_frame *fr,
                                struct iodfg_error *err)
{
    return iodfg_eventlog_push_frame(ctx, fr, err);
}
