/* SPDX-License-Identifier: MIT */
/* Shared command-line pieces: error output, totals, progress bar, loading logs or traces. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "iodfg/casename.h"
#include "iodfg/error.h"
#include "iodfg/glyph.h"
#include "iodfg/ingest.h"
#include "iodfg/mounts.h"
#include "iodfg/rules.h"
#include "iodfg/sanitize.h"
#include "iodfg/store.h"
#include "iodfg/strace.h"
#include "iodfg/textfile.h"

#include "cli.h"

/* Write a message to stderr through the terminal sanitiser, line by line (the message's own
 * line breaks stay; any other control in it, from a file name or a trace, is escaped). */
const char *cli_program = "iodfg";

/* n bytes of a usage text; an MPI job analyses one event log: "LOG.h5|TRACES..." says LOG.h5. */
static void usage_inputs_put(const char *p, size_t n, FILE *out)
{
    static const char *const traces[] = {"|FILES|DIRS...", "|TRACES..."};
    while (cli_job && n) {
        const char *hit = NULL, *end = p + n;
        size_t len = 0;
        for (size_t i = 0; i < 2; i++) {
            const char *h = strstr(p, traces[i]);
            if (h && h + strlen(traces[i]) <= end && (!hit || h < hit)) {
                hit = h;
                len = strlen(traces[i]);
            }
        }
        if (!hit) {
            break;
        }
        fwrite(p, 1, (size_t)(hit - p), out);
        n -= (size_t)(hit - p) + len;
        p = hit + len;
    }
    fwrite(p, 1, n, out);
}

void cli_usage_put(const char *text, FILE *out)
{
    // the texts are written for iodfg: name the running program wherever they name it
    for (const char *p = text, *hit; *p; p = hit + 5) {
        hit = strstr(p, "iodfg");
        if (!hit) {
            usage_inputs_put(p, strlen(p), out);
            break;
        }
        usage_inputs_put(p, (size_t)(hit - p), out);
        int word = (hit == text || !isalnum((unsigned char)hit[-1])) &&
                   !isalnum((unsigned char)hit[5]) && hit[5] != '-' && hit[5] != '/';
        fputs(word ? cli_program : "iodfg", out);
    }
}

size_t cli_text_width(const char *s, size_t len)
{
    size_t w = 0;
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < len;) {
        size_t k = iodfg_utf8_valid(p + i, len - i);
        if (k == 0) {
            k = 1;
        }
        unsigned cp = p[i];
        if (k == 2) {
            cp = ((p[i] & 0x1fu) << 6) | (p[i + 1] & 0x3fu);
        }
        w += !(cp >= 0x300 && cp <= 0x36f); // combining diacritical marks take no column
        i += k;
    }
    return w;
}

void cli_error_caret(const struct iodfg_error *err, const char *text, size_t len)
{
    cli_error(err);
    if (!err->line || !text) {
        return;
    }
    const char *p = text, *end = text + len;
    for (unsigned long ln = 1; ln < err->line; ln++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl) {
            return;
        }
        p = nl + 1;
    }
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t ll = nl ? (size_t)(nl - p) : (size_t)(end - p);
    if (ll && p[ll - 1] == '\r') {
        ll--;
    }
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    iodfg_sanitize_term(&b, p, ll);
    fprintf(stderr, "  %s\n", b.data ? b.data : "");
    if (err->col) {
        size_t upto = err->col - 1 < ll ? err->col - 1 : ll;
        iodfg_buf_clear(&b);
        iodfg_sanitize_term(&b, p, upto);
        fprintf(stderr, "  %*s^\n", (int)cli_text_width(b.data ? b.data : "", b.len), "");
    }
    iodfg_buf_fini(&b);
}

static void put_message(const char *text)
{
    // the whole text through the sanitiser once: names in it are raw, and a line break in one
    // shows as \n instead of starting a line that looks like a message of its own
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    iodfg_buf_addf(&b, "%s: ", cli_program);
    iodfg_sanitize_term(&b, text, strlen(text));
    iodfg_buf_add(&b, "\n", 1);
    if (b.failed) {
        fprintf(stderr, "%s: out of memory\n", cli_program);
    } else {
        fputs(b.data, stderr);
    }
    iodfg_buf_fini(&b);
}

void cli_error(const struct iodfg_error *err)
{
    char buf[1500];
    put_message(iodfg_error_format(err, buf, sizeof(buf)));
}

void cli_put_term(FILE *out, const char *s)
{
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    iodfg_sanitize_term(&b, s, strlen(s));
    fputs(b.failed || !b.data ? "(out of memory)" : b.data, out);
    iodfg_buf_fini(&b);
}

int cli_stdout_status(int rc)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout)) {
        return rc;
    }
    if (rc != CLI_OK && rc != CLI_SKIPPED) {
        return rc;
    }
    if (errno) {
        cli_errorf("writing to standard output failed: %s", strerror(errno));
    } else {
        cli_errorf("writing to standard output failed");
    }
    return CLI_FAIL;
}

void cli_errorf(const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    put_message(buf);
}

void cli_cell_text(struct iodfg_buf *b, const char *s, size_t len, size_t max, int pad)
{
    size_t before = b->len;
    // sanitise at most what can show: a cell of max columns needs at most 4 * max bytes of text
    size_t take = len > 4 * max + 4 ? 4 * max + 4 : len;
    iodfg_sanitize_term(b, s, take);
    if (b->failed) {
        return;
    }
    const char *t = b->data + before;
    size_t n = b->len - before, w = cli_text_width(t, n);
    if (w > max || take < len) { // cut at a character boundary, then the ellipsis
        const char *ell = iodfg_glyph(IODFG_GL_ELLIPSIS);
        size_t ew = cli_text_width(ell, strlen(ell)), keep = 0, cols = 0;
        while (keep < n) {
            size_t k = iodfg_utf8_valid((const unsigned char *)t + keep, n - keep);
            k = k ? k : 1;
            size_t cw = cli_text_width(t + keep, k);
            if (cols + cw + ew > max) {
                break;
            }
            cols += cw;
            keep += k;
        }
        iodfg_buf_truncate(b, before + keep);
        iodfg_buf_add(b, ell, strlen(ell));
        w = cols + ew;
    }
    for (; pad > 0 && w < (size_t)pad; w++) {
        iodfg_buf_add(b, " ", 1);
    }
}

const char *cli_count(char *buf, size_t size, uint64_t v)
{
    char digits[32];
    int n = snprintf(digits, sizeof(digits), "%llu", (unsigned long long)v);
    size_t o = 0;
    for (int i = 0; i < n && o + 2 < size; i++) {
        if (i > 0 && (n - i) % 3 == 0) {
            buf[o++] = ',';
        }
        buf[o++] = digits[i];
    }
    buf[o] = '\0';
    return buf;
}

const char *cli_bytes(char *buf, size_t size, double v)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int u = 0;
    while (v >= 1024 && u < 5) {
        v /= 1024;
        u++;
    }
    snprintf(buf, size, u ? "%.1f %s" : "%.0f %s", v, units[u]);
    return buf;
}

int cli_opt_jobs(const char *s, unsigned *jobs)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < 1 || v > 1024) {
        cli_errorf("--jobs expects a number from 1 to 1024, not '%s'", s);
        return CLI_USAGE;
    }
    *jobs = (unsigned)v;
    return 0;
}

int cli_opt_align(const char *s, int *align)
{
    if (strcmp(s, "start") != 0) {
        cli_errorf("--align expects 'start' (each case's times from its first event), not '%s'", s);
        return CLI_USAGE;
    }
    *align = 1;
    return 0;
}

const char cli_ingest_usage[] =
    "  -p, --name-pattern P    how trace file names give cid, host and rid: a\n"
    "                          template ('{cid}_{host}_{rid}.st', the default) or\n"
    "                          a PCRE2 regex with those named groups\n"
    "  -j, --jobs N            parse N trace files at a time (default: usable cores)\n"
    "      --mounts FILE       mount table (/proc/self/mounts format) giving each\n"
    "                          file's file system; default: mounts.txt beside the\n"
    "                          traces, else a built-in list\n";

int cli_ingest_option(int c, const char *arg, struct cli_ingest_opts *o)
{
    switch (c) {
    case 'p':
        return cli_opt_pattern(arg, &o->name_pattern) ? CLI_USAGE : 0;
    case 'j':
        return cli_opt_jobs(arg, &o->jobs) ? CLI_USAGE : 0;
    case CLI_OPT_MOUNTS:
        o->mounts = arg;
        return 0;
    default:
        return 1;
    }
}

int cli_ingest_other_option(int c, const char *arg, struct cli_ingest_opts *o,
                            void (*usage)(FILE *out))
{
    int rc = cli_ingest_option(c, arg, o);
    if (rc == 1) {
        usage(stderr);
    }
    return rc ? CLI_USAGE : 0;
}

int cli_opt_pattern(const char *s, const char **pattern)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_casename *cn = iodfg_casename_new(s, &err);
    if (!cn) {
        cli_error_caret(&err, s, strlen(s));
        return CLI_USAGE;
    }
    iodfg_casename_free(cn);
    *pattern = s;
    return 0;
}

int cli_need_inputs(int optind_, int argc, const char *what, const char *usage)
{
    if (optind_ < argc) {
        return 0;
    }
    if (cli_job) { // "dfg needs an event log or trace files": a job reads one event log
        cli_errorf("%.*s needs an event log (LOG.h5)", (int)strcspn(what, " "), what);
    } else {
        cli_errorf("%s", what);
    }
    cli_usage_put(usage, stderr);
    return CLI_USAGE;
}

void cli_totals_add(struct cli_ingest_totals *t, const char *path,
                    const struct iodfg_strace_result *r, int by_pattern)
{
    t->files++;
    t->lines += r->lines;
    t->bytes += r->bytes;
    t->events += r->counts[IODFG_COUNT_EVENTS];
    t->by_pattern += by_pattern != 0;
    t->files_without_events += r->counts[IODFG_COUNT_EVENTS] == 0;
    if (r->counts[IODFG_COUNT_EVENTS] && (unsigned)r->clock < IODFG_CLOCK__N) {
        t->clocks[r->clock]++;
    }
    for (int i = 0; i < IODFG_COUNT__N; i++) {
        t->counts[i] += r->counts[i];
    }
    if (!t->first_problem[0] && r->ndiags) { // raw: each output sanitises it
        snprintf(t->first_problem, sizeof(t->first_problem), "%s:%llu:%lu: %s", path,
                 (unsigned long long)r->diags[0].line, r->diags[0].col, r->diags[0].msg);
    }
}

// The singular or plural form for n.
static const char *form(uint64_t n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

void cli_totals_print(FILE *out, const struct cli_ingest_totals *t)
{
    char a[32], b[32], c[32], d[32];
    const uint64_t *k = t->counts;
    fprintf(out, "Read %s trace %s (%s, %s %s): %s %s", cli_count(a, sizeof(a), t->files),
            form(t->files, "file", "files"), cli_bytes(b, sizeof(b), (double)t->bytes),
            cli_count(c, sizeof(c), t->lines), form(t->lines, "line", "lines"),
            cli_count(d, sizeof(d), t->events), form(t->events, "event", "events"));
    if (k[IODFG_COUNT_MERGED]) {
        fprintf(out, ", %s of them merged from unfinished/resumed pairs",
                cli_count(a, sizeof(a), k[IODFG_COUNT_MERGED]));
    }
    fprintf(out, ".");
    uint64_t unnamed = t->files - t->by_pattern;
    if (unnamed) {
        fprintf(out, " %s %s not match the name pattern and %s named after the file.",
                cli_count(a, sizeof(a), unnamed), form(unnamed, "file did", "files did"),
                form(unnamed, "is", "are"));
    }
    static const struct {
        enum iodfg_count id;
        const char *one, *many;
    } notes[] = {{IODFG_COUNT_SIGNALS, "signal", "signals"},
                 {IODFG_COUNT_EXITS, "exit", "exits"},
                 {IODFG_COUNT_RESTARTS, "restart", "restarts"},
                 {IODFG_COUNT_NOTICES, "strace notice", "strace notices"},
                 {IODFG_COUNT_BLANK, "blank line", "blank lines"}};
    int any = 0;
    for (size_t i = 0; i < sizeof(notes) / sizeof(notes[0]); i++) {
        uint64_t n = k[notes[i].id];
        if (n) {
            fprintf(out, "%s %s %s", any ? "," : " Not events:", cli_count(a, sizeof(a), n),
                    form(n, notes[i].one, notes[i].many));
            any = 1;
        }
    }
    if (any) {
        fprintf(out, ".");
    }
    uint64_t n = k[IODFG_COUNT_UNMATCHED];
    if (n) {
        fprintf(out, " %s %s without a partner %s kept on %s own.", cli_count(a, sizeof(a), n),
                form(n, "unfinished/resumed half", "unfinished/resumed halves"),
                form(n, "was", "were"), form(n, "its", "their"));
    }
    n = k[IODFG_COUNT_NO_DURATION];
    if (n) {
        fprintf(out, " %s %s no duration (record with strace -T).", cli_count(a, sizeof(a), n),
                form(n, "event has", "events have"));
    }
    if (t->files_without_events) {
        fprintf(out, " %s %s no events.", cli_count(a, sizeof(a), t->files_without_events),
                form(t->files_without_events, "file held", "files held"));
    }
    n = k[IODFG_COUNT_UNPARSABLE];
    if (n) {
        fprintf(out, " Skipped %s unparsable %s; the first: ", cli_count(a, sizeof(a), n),
                form(n, "line", "lines"));
        cli_put_term(out, t->first_problem);
        fputc('.', out);
    }
    uint32_t clocks[IODFG_CLOCK__N];
    for (int ck = 0; ck < IODFG_CLOCK__N; ck++) {
        clocks[ck] = (uint32_t)t->clocks[ck];
    }
    char ct[200];
    if (cli_clocks_text(clocks, ct, sizeof(ct)) > 1) {
        fprintf(out,
                " Warning: the traces use different clocks (%s files): their times are "
                "never compared (concurrency and bandwidth over time are per clock; "
                "--align start compares the cases as if they started together).",
                ct);
    }
    fprintf(out, "\n");
}

/* ---- temp files removed on signals ------------------------------------------ */

static char guarded[4096];

static void on_signal(int sig)
{
    if (guarded[0]) {
        unlink(guarded); // async-signal-safe
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Block (how = SIG_BLOCK) or unblock the signals that remove the temp file. */
static void hold_signals(int how)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    pthread_sigmask(how, &set, NULL);
}

void cli_temp_hold(void)
{
    hold_signals(SIG_BLOCK);
}

void cli_temp_guard(const char *path)
{
    snprintf(guarded, sizeof(guarded), "%s", path);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGHUP, on_signal);
    hold_signals(SIG_UNBLOCK); // one that came meanwhile is handled now
}

void cli_temp_forget(void)
{
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    signal(SIGHUP, SIG_DFL);
    guarded[0] = '\0';
    hold_signals(SIG_UNBLOCK);
}

/* ---- progress bar ---------------------------------------------------------- */

static struct {
    int active;
    double t0, last;
} bar;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void cli_progress(void *ctx, uint64_t done, uint64_t total)
{
    (void)ctx;
    if (!isatty(STDERR_FILENO)) {
        return;
    }
    double t = now_s();
    if (!bar.active) {
        bar.active = 1;
        bar.t0 = t;
        bar.last = 0;
    }
    if (t - bar.last < 0.2 && done < total) {
        return;
    }
    bar.last = t;
    double frac = total ? (double)done / (double)total : 1.0;
    if (frac > 1) {
        frac = 1;
    }
    char fill[31];
    int w = (int)(frac * 30);
    for (int i = 0; i < 30; i++) {
        fill[i] = i < w ? '#' : '.';
    }
    fill[30] = '\0';
    char a[32], b[32], r[32];
    double el = t - bar.t0;
    fprintf(stderr, "\r%3.0f%% [%s] %s / %s  %s/s ", frac * 100, fill,
            cli_bytes(a, sizeof(a), (double)done), cli_bytes(b, sizeof(b), (double)total),
            cli_bytes(r, sizeof(r), el > 0 ? (double)done / el : 0));
    fflush(stderr);
}

void cli_progress_end(void)
{
    if (bar.active) {
        fprintf(stderr, "\r%*s\r", 79, "");
        fflush(stderr);
        bar.active = 0;
    }
}

/* ---- loading --------------------------------------------------------------- */

struct load_ctx {
    struct iodfg_eventlog *log;
    struct cli_ingest_totals *totals;
};

static int append_case(void *ctx, const struct iodfg_eventlog *one,
                       const struct iodfg_ingest_file *file, struct iodfg_error *err)
{
    struct load_ctx *lc = ctx;
    cli_totals_add(lc->totals, file->path, &file->result, file->named_by_pattern);
    return iodfg_eventlog_append(lc->log, one, err);
}

struct iodfg_mounts *cli_mounts_open(char *const *inputs, size_t n, const char *given, char *used,
                                     size_t size, struct iodfg_error *err)
{
    if (given) {
        snprintf(used, size, "%s", given);
        return iodfg_mounts_load(given, err);
    }
    for (size_t i = 0; i < n; i++) {
        char path[4200];
        struct stat st;
        if (stat(inputs[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            snprintf(path, sizeof(path), "%s/mounts.txt", inputs[i]);
        } else {
            const char *slash = strrchr(inputs[i], '/');
            int dl = slash ? (int)(slash - inputs[i]) + 1 : 0;
            snprintf(path, sizeof(path), "%.*smounts.txt", dl, inputs[i]);
        }
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
            snprintf(used, size, "%s", path);
            return iodfg_mounts_load(path, err);
        }
    }
    snprintf(used, size, "built-in list");
    return iodfg_mounts_builtin(err);
}

static int ends_with_h5(const char *path)
{
    size_t len = strlen(path);
    return len > 3 && strcasecmp(path + len - 3, ".h5") == 0;
}

int cli_clocks_text(const uint32_t *clocks, char *buf, size_t size)
{
    static const int order[] = {IODFG_CLOCK_TIME_OF_DAY, IODFG_CLOCK_EPOCH, IODFG_CLOCK_RELATIVE,
                                IODFG_CLOCK_NONE};
    size_t o = 0;
    int used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
        uint32_t n = clocks[order[i]];
        if (n && o < size) {
            o += (size_t)snprintf(buf + o, size - o, "%s%u %s", used ? ", " : "", n,
                                  order[i] == IODFG_CLOCK_NONE
                                      ? "without timestamps"
                                      : iodfg_clock_name((enum iodfg_clock)order[i]));
            used++;
        }
    }
    return used;
}

void cli_clock_note(const struct iodfg_eventlog *log, const uint8_t *case_on, int quiet)
{
    uint32_t n[IODFG_CLOCK__N];
    char text[200];
    iodfg_eventlog_clocks(log, case_on, n);
    if (cli_job) { // every process holds some cases: the note is about all of them
        cli_job->sum(cli_job->ctx, n, IODFG_CLOCK__N);
    }
    if (quiet || cli_clocks_text(n, text, sizeof(text)) < 2) {
        return;
    }
    cli_errorf("note: the cases use different clocks (%s cases): times of different clocks are "
               "never compared; mc, concurrency and bandwidth over time are computed per clock "
               "(--align start compares the cases as if they started together)",
               text);
}

void cli_list_notes(const struct iodfg_input_list *l, int quiet)
{
    if (quiet) {
        return;
    }
    if (l->dirs_again || l->files_again) {
        cli_errorf("note: %zu director%s and %zu file%s reached again through links or mounts "
                   "were skipped: each is read once",
                   l->dirs_again, l->dirs_again == 1 ? "y" : "ies", l->files_again,
                   l->files_again == 1 ? "" : "s");
    }
    for (size_t i = 0; l->renamed && i < l->n; i++) {
        if (strchr(l->files[i].name, '/')) {
            cli_errorf("note: %zu trace file%s share%s a name with another in a different "
                       "directory; their cases are named with the directory, e.g. '%s'",
                       l->renamed, l->renamed == 1 ? "" : "s", l->renamed == 1 ? "s" : "",
                       l->files[i].name);
            break;
        }
    }
    if (l->same_name) {
        cli_errorf("warning: %zu trace files still share a case name with another one",
                   l->same_name);
    }
    if (l->not_regular) {
        cli_errorf("note: skipped %zu entr%s named like a trace but not a regular file (a FIFO, a "
                   "device or a link that leads nowhere), e.g. %s",
                   l->not_regular, l->not_regular == 1 ? "y" : "ies", l->not_regular_path);
    }
}

int cli_check_inputs(char *const *inputs, size_t n, int logs_allowed, struct iodfg_error *err)
{
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        int regular = stat(inputs[i], &st) == 0 && S_ISREG(st.st_mode);
        int hdf5 = iodfg_store_is_hdf5(inputs[i]);
        if (ends_with_h5(inputs[i]) && regular && !hdf5) {
            iodfg_error_set(err, IODFG_E_ARG,
                            "not an HDF5 event log (the file lacks the HDF5 signature%s); a trace "
                            "file is read as one only when its name does not end in .h5",
                            st.st_size == 0 ? ": it is empty" : "");
            iodfg_error_at(err, inputs[i], 0, 0);
            return -1;
        }
        if (hdf5 && (!logs_allowed || n > 1)) {
            iodfg_error_set(err, IODFG_E_ARG, "%s",
                            logs_allowed ? "is an HDF5 file; give an event log alone, not with "
                                           "traces"
                                         : "is an HDF5 file, not a trace: convert reads traces");
            iodfg_error_at(err, inputs[i], 0, 0);
            return -1;
        }
    }
    return 0;
}

// --align start: every case's times from its first event (the log is freed on failure).
static struct iodfg_eventlog *align(struct iodfg_eventlog *log, const struct cli_ingest_opts *o,
                                    struct iodfg_error *err)
{
    if (log && o->align_starts && iodfg_eventlog_align_starts(log)) {
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        iodfg_eventlog_free(log);
        return NULL;
    }
    return log;
}

const struct cli_job *cli_job;

int cli_job_writes(void)
{
    return !cli_job || cli_job->writes;
}

int cli_agree(int rc)
{
    return cli_job ? cli_job->agree(cli_job->ctx, rc) : rc;
}

struct job_part {
    const struct cli_job *job;
    const char *path;
};

static void job_part_cases(void *ctx, uint64_t ncases, const uint64_t *events, uint32_t *first,
                           uint32_t *count)
{
    const struct job_part *jp = ctx;
    jp->job->cases(jp->job->ctx, jp->path, ncases, events, first, count);
}

/* This process's cases of the event log at path (under a job). */
static struct iodfg_eventlog *load_part(const char *path, unsigned columns, struct iodfg_error *err)
{
    struct job_part jp = {cli_job, path};
    return iodfg_store_load_part(path, columns, job_part_cases, &jp, err);
}

struct iodfg_eventlog *cli_load(char *const *inputs, size_t n, unsigned columns,
                                const struct cli_ingest_opts *o, struct cli_ingest_totals *totals,
                                struct iodfg_error *err)
{
    memset(totals, 0, sizeof(*totals));
    if (cli_check_inputs(inputs, n, 1, err)) {
        return NULL;
    }
    int one_log = n == 1 && iodfg_store_is_hdf5(inputs[0]);
    if (cli_job && !one_log) { // say what the input is, and how to make a log of traces
        struct stat st;
        if (n == 1 && stat(inputs[0], &st) != 0) {
            iodfg_error_set(err, IODFG_E_IO, "%s", strerror(errno));
        } else {
            iodfg_error_set(err, IODFG_E_ARG,
                            "%s; an MPI job analyses one event log (LOG.h5): convert trace files "
                            "first (mpirun -n P iodfg-mpi convert -o LOG.h5 DIR...)",
                            n > 1                 ? "more than one input"
                            : S_ISDIR(st.st_mode) ? "is a directory, not an event log"
                                                  : "is not an HDF5 event log");
        }
        if (n == 1) {
            iodfg_error_at(err, inputs[0], 0, 0);
        }
        return NULL;
    }
    if (one_log) {
        struct iodfg_eventlog *log =
            cli_job
                ? load_part(inputs[0], columns, err)
                : iodfg_store_load(inputs[0], columns, o->quiet ? NULL : cli_progress, NULL, err);
        cli_progress_end();
        // keep the classification stored by convert unless --mounts is given
        if (log && !o->mounts && iodfg_mounts_log_classified(log)) {
            snprintf(totals->mounts, sizeof(totals->mounts), "stored in the log");
        } else if (log) {
            struct iodfg_mounts *m =
                cli_mounts_open(NULL, 0, o->mounts, totals->mounts, sizeof(totals->mounts), err);
            if (!m || iodfg_mounts_classify(m, log, err)) {
                iodfg_eventlog_free(log);
                log = NULL;
            }
            iodfg_mounts_free(m);
        }
        return align(log, o, err);
    }
    struct iodfg_mounts *mounts =
        cli_mounts_open(inputs, n, o->mounts, totals->mounts, sizeof(totals->mounts), err);
    if (!mounts) {
        return NULL;
    }
    struct iodfg_casename *names = iodfg_casename_new(o->name_pattern, err);
    if (!names) {
        iodfg_mounts_free(mounts);
        return NULL;
    }
    struct iodfg_input_list files;
    int listed = iodfg_ingest_list((const char *const *)inputs, n, names, &files, err) == 0;
    struct iodfg_eventlog *log = listed ? iodfg_eventlog_new(columns) : NULL;
    if (listed && !log) {
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    if (listed) {
        cli_list_notes(&files, o->quiet);
    }
    if (log) {
        for (size_t i = 0; i < files.n; i++) {
            if (iodfg_store_is_hdf5(files.files[i].path)) {
                iodfg_error_set(err, IODFG_E_ARG,
                                "is an HDF5 file; give an event log alone, not with traces");
                iodfg_error_at(err, files.files[i].path, 0, 0);
                iodfg_eventlog_free(log);
                log = NULL;
                break;
            }
        }
    }
    if (log) {
        struct iodfg_ingest_opts io = {.names = names,
                                       .jobs = o->jobs,
                                       .columns = columns,
                                       .progress = o->quiet ? NULL : cli_progress,
                                       .mounts = mounts,
                                       .csv = o->csv};
        struct load_ctx lc = {log, totals};
        if (iodfg_ingest_run(&files, &io, append_case, &lc, err)) {
            iodfg_eventlog_free(log);
            log = NULL;
        }
        cli_progress_end();
    }
    if (listed) {
        iodfg_ingest_list_fini(&files);
    }
    iodfg_casename_free(names);
    iodfg_mounts_free(mounts);
    return align(log, o, err);
}

char *cli_rules_text(const char *name, size_t *len, struct iodfg_error *err)
{
    struct stat st;
    const char *text = iodfg_rules_preset(name);
    if (!text || stat(name, &st) == 0) { // a file of that name wins
        return iodfg_textfile_read(name, "rules file", CLI_RULES_MAX, len, err);
    }
    char *copy = strdup(text);
    if (!copy) {
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    *len = copy ? strlen(copy) : 0;
    return copy;
}
