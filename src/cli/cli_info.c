/* SPDX-License-Identifier: MIT */
/* `iodfg info`: what an event log holds, for a person or (--json) for a script. */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "iodfg/buf.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/glyph.h"
#include "iodfg/sanitize.h"
#include "iodfg/strpool.h"

#include "cli.h"

static const char info_usage[] =
    "usage: iodfg info [--format table|json] [--cases N] [--top N] [--name-pattern P]\n"
    "                  [--jobs N] [--mounts FILE] LOG.h5|FILES|DIRS...\n"
    "Summarise an event log: cases, events, calls, paths, time spans and clocks,\n"
    "skipped lines, top calls.\n"
    "      --format F          table (default) or json (--json: the same as json)\n"
    "      --cases N           list at most N cases (default 20; 0 = all)\n"
    "      --top N             show the N most frequent calls (default 10)\n";

static void usage(FILE *out)
{
    fputs(info_usage, out);
    fputs(cli_ingest_usage, out);
}

struct call_count {
    uint32_t call;
    uint64_t n;
};

struct summary {
    uint64_t events, no_dur;
    uint32_t ncalls, npaths;
    struct call_count *calls; // sorted by count, descending
    uint64_t counts[IODFG_COUNT__N];
    int64_t first[4], last[4]; // per clock kind: earliest start, latest end
    int have[4];
};

static int cmp_calls(const void *a, const void *b)
{
    const struct call_count *x = a, *y = b;
    if (x->n != y->n) {
        return x->n > y->n ? -1 : 1;
    }
    return x->call < y->call ? -1 : x->call > y->call;
}

static int summarise(const struct iodfg_eventlog *log, struct summary *s)
{
    memset(s, 0, sizeof(*s));
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(log);
    uint32_t nstr = iodfg_strpool_count(pool), nkeys = iodfg_eventlog_key_count(log);
    const struct iodfg_key *keys = iodfg_eventlog_keys(log);
    const struct iodfg_columns *c = iodfg_eventlog_columns(log);
    uint64_t *per_key = calloc((size_t)nkeys + 1, sizeof(*per_key));
    uint64_t *per_call = calloc(nstr, sizeof(*per_call));
    uint8_t *path_seen = calloc(nstr, 1);
    if (!per_key || !per_call || !path_seen) {
        free(per_key);
        free(per_call);
        free(path_seen);
        return -1;
    }
    const uint64_t *off = iodfg_eventlog_case_offsets(log);
    for (uint32_t cs = 0; cs < iodfg_eventlog_case_count(log); cs++) {
        const struct iodfg_case_info *ci = iodfg_eventlog_case(log, cs);
        for (int k = 0; k < IODFG_COUNT__N; k++) {
            s->counts[k] += ci->counts[k];
        }
        unsigned ck = (unsigned)ci->clock & 3;
        if (off[cs] == off[cs + 1]) {
            continue;
        }
        // A case's rows are sorted by start: its first row starts first.
        int64_t first = c->start_ns[off[cs]], last = INT64_MIN;
        uint64_t no_dur = 0;
        for (uint64_t i = off[cs]; i < off[cs + 1]; i++) {
            per_key[c->key[i]]++;
            int64_t d = c->dur_ns[i];
            int unknown = d == IODFG_UNKNOWN;
            no_dur += (uint64_t)unknown;
            int64_t end = c->start_ns[i] + (unknown ? 0 : d);
            last = end > last ? end : last;
        }
        s->no_dur += no_dur;
        s->first[ck] = !s->have[ck] || first < s->first[ck] ? first : s->first[ck];
        s->last[ck] = !s->have[ck] || last > s->last[ck] ? last : s->last[ck];
        s->have[ck] = 1;
    }
    s->events = iodfg_eventlog_event_count(log);
    for (uint32_t k = 0; k < nkeys; k++) {
        if (!per_key[k]) {
            continue;
        }
        if (!per_call[keys[k].call]) {
            s->ncalls++;
        }
        per_call[keys[k].call] += per_key[k];
        if (keys[k].path != IODFG_STR_EMPTY && !path_seen[keys[k].path]) {
            path_seen[keys[k].path] = 1;
            s->npaths++;
        }
    }
    s->calls = calloc((size_t)s->ncalls + 1, sizeof(*s->calls));
    if (s->calls) {
        uint32_t n = 0;
        for (uint32_t id = 0; id < nstr; id++) {
            if (per_call[id]) {
                s->calls[n].call = id;
                s->calls[n++].n = per_call[id];
            }
        }
        qsort(s->calls, n, sizeof(*s->calls), cmp_calls);
    }
    free(per_key);
    free(per_call);
    free(path_seen);
    return s->calls ? 0 : -1;
}

// A start time in its clock's natural form.
void cli_time_text(char *buf, size_t size, enum iodfg_clock clock, int64_t ns)
{
    int64_t sec = ns / 1000000000LL, frac = ns % 1000000000LL / 1000;
    if (clock == IODFG_CLOCK_EPOCH) {
        time_t t = (time_t)sec;
        struct tm tm;
        gmtime_r(&t, &tm);
        char d[64];
        strftime(d, sizeof(d), "%Y-%m-%d %H:%M:%S", &tm);
        snprintf(buf, size, "%s.%06lld UTC", d, (long long)frac);
    } else if (clock == IODFG_CLOCK_TIME_OF_DAY) {
        int64_t day = sec / 86400, s = sec % 86400;
        snprintf(buf, size, "%s%02lld:%02lld:%02lld.%06lld", day ? "+1d " : "",
                 (long long)(s / 3600), (long long)(s / 60 % 60), (long long)(s % 60),
                 (long long)frac);
    } else {
        snprintf(buf, size, "+%lld.%06lld s", (long long)sec, (long long)frac);
    }
}

static void print_text(const char *src, const struct iodfg_eventlog *log, const struct summary *s,
                       unsigned max_cases, unsigned top)
{
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(log);
    char a[32], b[64], t1[80], t2[80];
    struct iodfg_buf sb;
    iodfg_buf_init(&sb);
    iodfg_sanitize_term(&sb, src, strlen(src));
    printf("Event log   %s\n", sb.data ? sb.data : "");
    uint32_t ncases = iodfg_eventlog_case_count(log);
    printf("Cases       %s\n", cli_count(a, sizeof(a), ncases));
    printf("Events      %s", cli_count(a, sizeof(a), s->events));
    if (s->no_dur) {
        printf(" (%s without a duration)", cli_count(a, sizeof(a), s->no_dur));
    }
    printf("\nCalls       %u distinct\nPaths       %u distinct\n", s->ncalls, s->npaths);
    for (int k = 0; k < 4; k++) {
        if (!s->have[k]) {
            continue;
        }
        if (k == IODFG_CLOCK_NONE) {
            printf("Time span   (no timestamps in some cases)\n");
            continue;
        }
        cli_time_text(t1, sizeof(t1), (enum iodfg_clock)k, s->first[k]);
        cli_time_text(t2, sizeof(t2), (enum iodfg_clock)k, s->last[k]);
        printf("Time span   %s -> %s (%.6f s, %s clock)\n", t1, t2,
               (double)(s->last[k] - s->first[k]) / 1e9, iodfg_clock_name((enum iodfg_clock)k));
    }
    uint32_t clocks[IODFG_CLOCK__N];
    char ct[200];
    if (iodfg_eventlog_clocks(log, NULL, clocks) > 1) {
        cli_clocks_text(clocks, ct, sizeof(ct));
        printf("Clocks      %s cases: times of different clocks are never compared (concurrency "
               "and bandwidth over time are per clock; --align start compares the cases as if "
               "they started together)\n",
               ct);
    }
    char sep[8];
    snprintf(sep, sizeof(sep), " %s", iodfg_glyph(IODFG_GL_SEP));
    printf("Lines      ");
    for (int k = 0; k < IODFG_COUNT__N; k++) {
        printf(" %s %s%s", iodfg_count_name((enum iodfg_count)k),
               cli_count(a, sizeof(a), s->counts[k]), k + 1 < IODFG_COUNT__N ? sep : "\n");
    }
    printf("Top calls  ");
    for (uint32_t i = 0; i < s->ncalls && i < top; i++) {
        printf(" %s %s (%.1f%%)%s", iodfg_strpool_get(pool, s->calls[i].call),
               cli_count(a, sizeof(a), s->calls[i].n),
               s->events ? 100.0 * (double)s->calls[i].n / (double)s->events : 0.0,
               i + 1 < s->ncalls && i + 1 < top ? sep : "");
    }
    printf("\n\n  %-28s %-10s %-14s %-10s %10s  %s\n", "case", "cid", "host", "rid", "events",
           "span");
    const uint64_t *off = iodfg_eventlog_case_offsets(log);
    const struct iodfg_columns *c = iodfg_eventlog_columns(log);
    for (uint32_t cs = 0; cs < ncases && (max_cases == 0 || cs < max_cases); cs++) {
        const struct iodfg_case_info *ci = iodfg_eventlog_case(log, cs);
        const uint32_t ids[] = {ci->name, ci->cid, ci->host, ci->rid};
        const int widths[] = {-28, -10, -14, -10};
        printf(" ");
        for (int f = 0; f < 4; f++) {
            iodfg_buf_clear(&sb);
            iodfg_sanitize_term(&sb, iodfg_strpool_get(pool, ids[f]),
                                iodfg_strpool_len(pool, ids[f]));
            printf(" %*s", widths[f], sb.data ? sb.data : "");
        }
        uint64_t n = off[cs + 1] - off[cs];
        double span = n ? (double)(c->start_ns[off[cs + 1] - 1] - c->start_ns[off[cs]]) / 1e9 : 0;
        snprintf(b, sizeof(b), "%.6f s", span);
        printf(" %10s  %s%s\n", cli_count(a, sizeof(a), n), b,
               ci->naming == IODFG_NAMING_FILENAME ? "  (named after the file)" : "");
    }
    if (max_cases && ncases > max_cases) {
        printf("  ... %u more (--cases 0 lists all)\n", ncases - max_cases);
    }
    iodfg_buf_fini(&sb);
}

/* Keys naming files by scope (enum iodfg_scope). */
static void scope_counts(const struct iodfg_eventlog *log, uint64_t n[IODFG_SCOPE__N])
{
    memset(n, 0, IODFG_SCOPE__N * sizeof(n[0]));
    const struct iodfg_key *keys = iodfg_eventlog_keys(log);
    for (uint32_t k = 0; k < iodfg_eventlog_key_count(log); k++) {
        if (keys[k].kind == IODFG_PATH_FILE && keys[k].scope < IODFG_SCOPE__N) {
            n[keys[k].scope]++;
        }
    }
}

static void print_json(const char *src, const struct iodfg_eventlog *log, const struct summary *s)
{
    const struct iodfg_strpool *pool = iodfg_eventlog_pool(log);
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    iodfg_buf_addf(&b, "{\"source\":");
    iodfg_json_str(&b, src, strlen(src));
    iodfg_buf_addf(&b,
                   ",\"cases\":%u,\"events\":%llu,\"events_without_duration\":%llu,"
                   "\"distinct_calls\":%u,\"distinct_paths\":%u,\"lines\":{",
                   iodfg_eventlog_case_count(log), (unsigned long long)s->events,
                   (unsigned long long)s->no_dur, s->ncalls, s->npaths);
    for (int k = 0; k < IODFG_COUNT__N; k++) {
        iodfg_buf_addf(&b, "%s\"%s\":%llu", k ? "," : "", iodfg_count_name((enum iodfg_count)k),
                       (unsigned long long)s->counts[k]);
    }
    iodfg_buf_addf(&b, "},\"time_spans\":[");
    int first = 1;
    for (int k = 1; k < 4; k++) {
        if (s->have[k]) {
            iodfg_buf_addf(&b, "%s{\"clock\":\"%s\",\"first_ns\":%lld,\"last_ns\":%lld}",
                           first ? "" : ",", iodfg_clock_name((enum iodfg_clock)k),
                           (long long)s->first[k], (long long)s->last[k]);
            first = 0;
        }
    }
    iodfg_buf_addf(&b, "],\"calls\":[");
    for (uint32_t i = 0; i < s->ncalls; i++) {
        iodfg_buf_addf(&b, "%s{\"call\":", i ? "," : "");
        iodfg_json_str(&b, iodfg_strpool_get(pool, s->calls[i].call),
                       iodfg_strpool_len(pool, s->calls[i].call));
        iodfg_buf_addf(&b, ",\"events\":%llu}", (unsigned long long)s->calls[i].n);
    }
    // which table classified the files is in the text output only: the same log read from
    // traces or from its converted file gives the same JSON
    uint64_t sc[IODFG_SCOPE__N];
    scope_counts(log, sc);
    iodfg_buf_addf(&b, "],\"file_keys_by_scope\":{");
    for (int k = IODFG_SCOPE_UNKNOWN; k < IODFG_SCOPE__N; k++) {
        iodfg_buf_addf(&b, "%s\"%s\":%llu", k > IODFG_SCOPE_UNKNOWN ? "," : "",
                       iodfg_scope_name((enum iodfg_scope)k), (unsigned long long)sc[k]);
    }
    iodfg_buf_addf(&b, "},\"case_list\":[");
    const uint64_t *off = iodfg_eventlog_case_offsets(log);
    for (uint32_t cs = 0; cs < iodfg_eventlog_case_count(log); cs++) {
        const struct iodfg_case_info *ci = iodfg_eventlog_case(log, cs);
        const char *names[] = {"name", "cid", "host", "rid", "source"};
        const uint32_t ids[] = {ci->name, ci->cid, ci->host, ci->rid, ci->source};
        iodfg_buf_add(&b, cs ? ",{" : "{", cs ? 2 : 1);
        for (int f = 0; f < 5; f++) {
            iodfg_buf_addf(&b, "\"%s\":", names[f]);
            iodfg_json_str(&b, iodfg_strpool_get(pool, ids[f]), iodfg_strpool_len(pool, ids[f]));
            iodfg_buf_add(&b, ",", 1);
        }
        iodfg_buf_addf(&b, "\"named_by\":\"%s\",\"clock\":\"%s\",\"events\":%llu,\"lines\":%llu",
                       ci->naming == IODFG_NAMING_PATTERN ? "pattern" : "file name",
                       iodfg_clock_name(ci->clock), (unsigned long long)(off[cs + 1] - off[cs]),
                       (unsigned long long)ci->lines);
        for (int k = 0; k < IODFG_COUNT__N; k++) {
            iodfg_buf_addf(&b, ",\"%s\":%llu", iodfg_count_name((enum iodfg_count)k),
                           (unsigned long long)ci->counts[k]);
        }
        iodfg_buf_add(&b, "}", 1);
    }
    iodfg_buf_addf(&b, "]}\n");
    if (!b.failed) {
        fwrite(b.data, 1, b.len, stdout);
    }
    iodfg_buf_fini(&b);
}

static int parse_uint(const char *s, unsigned *v)
{
    char *end;
    long x = strtol(s, &end, 10);
    if (*s == '\0' || *end || x < 0 || x > 100000000) {
        return -1;
    }
    *v = (unsigned)x;
    return 0;
}

int cli_info(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"json", no_argument, NULL, 'J'},
        {"cases", required_argument, NULL, 'c'},
        {"top", required_argument, NULL, 't'},
        {"help", no_argument, NULL, 'h'},
        {"format", required_argument, NULL, 'F'},
        CLI_INGEST_LONGOPTS,
        {NULL, 0, NULL, 0},
    };
    struct cli_ingest_opts o = {0};
    int json = 0, c;
    unsigned max_cases = 20, top = 10;
    optind = 1;
    while ((c = getopt_long(argc, argv, "p:j:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'J':
            json = 1;
            break;
        case 'F':
            if (strcmp(optarg, "table") != 0 && strcmp(optarg, "json") != 0) {
                cli_errorf("--format takes table or json, not '%s'", optarg);
                return CLI_USAGE;
            }
            json = optarg[0] == 'j';
            break;
        case 'c':
        case 't':
            if (parse_uint(optarg, c == 'c' ? &max_cases : &top)) {
                cli_errorf("--%s expects a number, not '%s'", c == 'c' ? "cases" : "top", optarg);
                return CLI_USAGE;
            }
            break;
        case 'h':
            usage(stdout);
            return CLI_OK;
        default:
            if (cli_ingest_other_option(c, optarg, &o, usage)) {
                return CLI_USAGE;
            }
        }
    }
    if (cli_need_inputs(optind, argc, "info needs an event log or trace files", info_usage)) {
        return CLI_USAGE;
    }
    o.quiet = json;
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct cli_ingest_totals totals;
    unsigned cols = IODFG_COL_START | IODFG_COL_DUR | IODFG_COL_KEY;
    struct iodfg_eventlog *log =
        cli_load(argv + optind, (size_t)(argc - optind), cols, &o, &totals, &err);
    if (!log) {
        cli_error(&err);
        return CLI_FAIL;
    }
    struct summary s;
    int rc = CLI_OK;
    const char *src = argc - optind == 1 ? argv[optind] : "(several inputs)";
    if (summarise(log, &s)) {
        cli_errorf("out of memory");
        rc = CLI_FAIL;
    } else if (json) {
        print_json(src, log, &s);
    } else {
        print_text(src, log, &s, max_cases, top);
        uint64_t sc[IODFG_SCOPE__N];
        scope_counts(log, sc);
        printf("\nFile systems (mount table: %s): file paths", totals.mounts);
        for (int k = IODFG_SCOPE_UNKNOWN; k < IODFG_SCOPE__N; k++) {
            printf("%s %llu %s", k > IODFG_SCOPE_UNKNOWN ? "," : "", (unsigned long long)sc[k],
                   iodfg_scope_name((enum iodfg_scope)k));
        }
        printf("\n");
        if (totals.files && totals.first_problem[0]) {
            printf("\nFirst unparsable line: ");
            cli_put_term(stdout, totals.first_problem);
            printf("\n");
        }
    }
    free(s.calls);
    iodfg_eventlog_free(log);
    return rc;
}
