/* SPDX-License-Identifier: MIT */
/* What an ingest read, said once it is done: the totals of the trace files and the notes on what
 * listing them skipped or renamed. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "iodfg/ingest.h"
#include "iodfg/otf2.h"
#include "iodfg/report.h"
#include "iodfg/strace.h"

#include "cli.h"

void cli_totals_add(struct cli_ingest_totals *t, const char *path,
                    const struct iodfg_strace_result *r, int by_pattern)
{
    int archive = iodfg_otf2_is_anchor(path); // its cases are named after its locations
    t->files++;
    t->lines += r->lines;
    t->bytes += r->bytes;
    t->archives += archive != 0;
    t->records += archive ? r->lines : 0;
    t->events += r->counts[IODFG_COUNT_EVENTS];
    t->frames += r->frames;
    t->by_pattern += by_pattern != 0 || archive;
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

/* "Read 16 trace files (41.9 KiB, 368 lines)", "Read 1 OTF2 archive (8,745 records)", or both
 * joined with "and" (an archive's bytes are libotf2's to read, and it has no lines). */
static void print_read(FILE *out, const struct cli_ingest_totals *t)
{
    char a[32], b[32], c[32];
    uint64_t files = t->files - t->archives, lines = t->lines - t->records;
    fprintf(out, "Read");
    if (files || !t->archives) {
        fprintf(out, " %s trace %s (%s, %s %s)", iodfg_report_count(a, sizeof(a), files),
                form(files, "file", "files"), cli_bytes(b, sizeof(b), (double)t->bytes),
                iodfg_report_count(c, sizeof(c), lines), form(lines, "line", "lines"));
    }
    if (t->archives) {
        fprintf(out, "%s %s OTF2 %s (%s %s)", files ? " and" : "",
                iodfg_report_count(a, sizeof(a), t->archives),
                form(t->archives, "archive", "archives"),
                iodfg_report_count(c, sizeof(c), t->records), form(t->records, "record", "records"));
    }
}

void cli_totals_print(FILE *out, const struct cli_ingest_totals *t)
{
    char a[32], d[32];
    const uint64_t *k = t->counts;
    print_read(out, t);
    fprintf(out, ": %s %s", iodfg_report_count(d, sizeof(d), t->events),
            form(t->events, "event", "events"));
    if (k[IODFG_COUNT_MERGED]) {
        fprintf(out, ", %s of them merged from unfinished/resumed pairs",
                iodfg_report_count(a, sizeof(a), k[IODFG_COUNT_MERGED]));
    }
    fprintf(out, ".");
    uint64_t unnamed = t->files - t->by_pattern;
    if (unnamed) {
        fprintf(out, " %s %s not match the name pattern and %s named after the file.",
                iodfg_report_count(a, sizeof(a), unnamed), form(unnamed, "file did", "files did"),
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
            fprintf(out, "%s %s %s",
                    any ? "," : " Not events:", iodfg_report_count(a, sizeof(a), n),
                    form(n, notes[i].one, notes[i].many));
            any = 1;
        }
    }
    if (any) {
        fprintf(out, ".");
    }
    if (t->frames) {
        fprintf(out, " %s stack frame %s (strace -k) read as call stacks.",
                iodfg_report_count(a, sizeof(a), t->frames), form(t->frames, "line", "lines"));
    }
    uint64_t n = k[IODFG_COUNT_UNMATCHED];
    if (n) {
        fprintf(out, " %s %s without a partner %s kept on %s own.",
                iodfg_report_count(a, sizeof(a), n),
                form(n, "unfinished/resumed half", "unfinished/resumed halves"),
                form(n, "was", "were"), form(n, "its", "their"));
    }
    n = k[IODFG_COUNT_NO_DURATION];
    if (n) {
        fprintf(out, " %s %s no duration (record with strace -T).",
                iodfg_report_count(a, sizeof(a), n), form(n, "event has", "events have"));
    }
    if (t->files_without_events) {
        fprintf(out, " %s %s no events.", iodfg_report_count(a, sizeof(a), t->files_without_events),
                form(t->files_without_events, "file held", "files held"));
    }
    n = k[IODFG_COUNT_UNPARSABLE];
    if (n) {
        fprintf(out, " Skipped %s unparsable %s; the first: ", iodfg_report_count(a, sizeof(a), n),
                form(n, "line", "lines"));
        cli_put_term(out, t->first_problem);
        fputc('.', out);
    }
    uint32_t clocks[IODFG_CLOCK__N];
    for (int ck = 0; ck < IODFG_CLOCK__N; ck++) {
        clocks[ck] = (uint32_t)t->clocks[ck];
    }
    char ct[200];
    if (iodfg_report_clocks(clocks, ct, sizeof(ct)) > 1) {
        fprintf(out,
                " Warning: the traces use different clocks (%s files): their times are "
                "never compared (concurrency and bandwidth over time are per clock; "
                "--align start compares the cases as if they started together).",
                ct);
    }
    fprintf(out, "\n");
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
