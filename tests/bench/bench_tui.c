/* SPDX-License-Identifier: MIT */
/* Benchmark of the TUI code on a synthetic IOR-like log (default 10 million events in 1000
 * cases, as bench_engine): the real curses frame drawn into /dev/null after a key (target
 * <= 16 ms; the Timeline's zoom, pan, fit, row scroll and activity change each on its own;
 * entering the Timeline and a rule or filter change while it is shown, whose event index is
 * built in the background, with the time until it is ready) and a live rule edit up to updated
 * tables (target <= 100 ms).
 * Usage: bench_tui [--events N] [--cases C] [--sync]   (prints to stderr; needs a TERM with
 * terminfo; --sync builds the Timeline's index on the UI thread, as small logs do)
 *        bench_tui --pictures LOG.h5 [--runs R]   the Heatmap and Offsets views' first draw on
 * a log from disk (make bench gives it the IOR-like log it converts; target <= 200 ms), each run
 * in a fresh app so that nothing is cached, and a key in each after it (zoom, shade, rows). */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/store.h"
#include "iodfg/strpool.h"
#include "tui/app.h"
#include "tui/app_priv.h"
#include "tui/term/ui.h"
#include "tui/views/charz/charz.h"
#include "tui/views/offsets/offsets_view.h"
#include "tui/views/timeline/timeline_grid.h"
#include "tui/views/timeline/timeline_job.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static uint64_t rng = 88172645463325252ULL;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void die(const struct iodfg_error *err)
{
    char buf[600];
    fprintf(stderr, "bench_tui: %s\n", iodfg_error_format(err, buf, sizeof(buf)));
    exit(1);
}

static uint32_t intern(struct iodfg_eventlog *log, const char *s)
{
    uint32_t id;
    if (iodfg_strpool_intern(iodfg_eventlog_pool(log), s, strlen(s), &id)) {
        fprintf(stderr, "bench_tui: out of memory\n");
        exit(1);
    }
    return id;
}

/* One rank: open, writes (lseek now and then), fsync, reads, close; ssf or fpp by rank. */
static void make_case(struct iodfg_eventlog *log, uint32_t c, uint64_t nev, const uint32_t *calls)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    char path[64], name[32];
    if (c % 2) {
        snprintf(path, sizeof(path), "/p/scratch/fpp/file.%05u", c);
    } else {
        snprintf(path, sizeof(path), "/p/scratch/ssf/shared");
    }
    snprintf(name, sizeof(name), "%s_host%u_%u", c % 2 ? "fpp" : "ssf", c / 48, 1000 + c);
    struct iodfg_case_info info;
    memset(&info, 0, sizeof(info));
    info.name = intern(log, name);
    info.cid = intern(log, c % 2 ? "fpp" : "ssf");
    uint32_t pid = intern(log, path), keys[6];
    if (iodfg_eventlog_begin_case(log, &info, &err)) {
        die(&err);
    }
    for (int i = 0; i < 6; i++) {
        if (iodfg_eventlog_key(log, calls[i], pid, &keys[i])) {
            fprintf(stderr, "bench_tui: out of memory\n");
            exit(1);
        }
    }
    int64_t t = 1700000000000000000LL + (int64_t)(next() % 2000000);
    struct iodfg_event ev;
    memset(&ev, 0, sizeof(ev));
    ev.pid = (int32_t)(20000 + c);
    ev.offset = ev.req = IODFG_UNKNOWN;
    for (uint64_t i = 0; i < nev; i++) {
        uint32_t k = i == 0 ? keys[0] : i + 1 == nev ? keys[5] : i % 97 == 0 ? keys[3]
                                     : i == nev / 2 ? keys[4] : i < nev / 2 ? keys[1] : keys[2];
        ev.start_ns = t;
        ev.dur_ns = 100000 + (int64_t)(next() % 1900000);
        ev.size = k == keys[1] || k == keys[2] ? 1 << 20 : IODFG_UNKNOWN;
        ev.key = k;
        if (iodfg_eventlog_push(log, &ev, i, &err)) {
            die(&err);
        }
        t += ev.dur_ns + 5000 + (int64_t)(next() % 45000);
    }
    if (iodfg_eventlog_end_case(log, &err)) {
        die(&err);
    }
}

/* One key in the UI: the command and the frame it asks for (ms). */
static double timed_key(struct tui_ui *ui, struct tui_app *app, enum tui_cmd cmd)
{
    double s = now_ms();
    tui_app_command(app, cmd);
    tui_ui_draw(ui, app);
    return now_ms() - s;
}

/* Until the Timeline's index is ready, as the event loop waits (polling, keys live): the wall
 * time from now in ms. */
static double until_ready(struct tui_ui *ui, struct tui_app *app)
{
    double s = now_ms();
    while (tui_app_timeline_busy(app)) {
        struct timespec ts = {0, 500000};
        nanosleep(&ts, NULL);
        if (tui_app_timeline_poll(app)) {
            tui_ui_draw(ui, app); // the view redraws by itself, and may start the next job
        }
    }
    return now_ms() - s;
}

/* A change that rebuilds (rules or filters) while the Timeline is shown: the rebuild and the
 * frame after it apart (ms). */
static void timed_change(struct tui_ui *ui, struct tui_app *app, enum tui_cmd cmd,
                         const char *answer, double *rebuild, double *draw)
{
    double s = now_ms();
    tui_app_command(app, cmd);
    if (answer) {
        tui_app_prompt_done(app, answer);
    }
    double m = now_ms();
    tui_ui_draw(ui, app);
    *rebuild = m - s;
    *draw = now_ms() - m;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void report(const char *what, double *v, int n, double target)
{
    qsort(v, (size_t)n, sizeof(*v), cmp_double);
    fprintf(stderr, "%-34s min %7.2f ms  median %7.2f ms  max %7.2f ms  (target <= %.0f ms, %d runs)\n",
            what, v[0], v[n / 2], v[n - 1], target, n);
}

static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* A key and its frame: wall time (returned) and the UI thread's processor time (*cpu). */
static double timed_key_cpu(struct tui_ui *ui, struct tui_app *app, enum tui_cmd cmd, double *cpu)
{
    double c = cpu_ms(), w = timed_key(ui, app, cmd);
    *cpu = cpu_ms() - c;
    return w;
}

/* The real frame, drawn by curses into /dev/null at 100x30: the UI, with the standard output
 * it replaced in *saved (restore it with dup2 before printing). */
static struct tui_ui *open_ui(int *saved)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    *saved = dup(1);
    int devnull = open("/dev/null", O_WRONLY);
    dup2(devnull, 1);
    setenv("LINES", "30", 1);
    setenv("COLUMNS", "100", 1);
    if (!getenv("TERM")) {
        setenv("TERM", "xterm-256color", 1);
    }
    struct tui_ui *ui = tui_ui_open("default", 0, &err);
    if (!ui) {
        dup2(*saved, 1);
        die(&err);
    }
    return ui;
}

/* The columns the TUI loads (tui_main.c). */
#define PICTURE_COLUMNS                                                                            \
    (IODFG_COL_ANALYSIS | IODFG_COL_OFFSET | IODFG_COL_FD | IODFG_COL_ERR | IODFG_COL_HANDLE |     \
     IODFG_COL_HANDLE_TABLE)

/* --pictures: the picture views on a log from disk, each run in a fresh app (a first draw). */
static int bench_pictures(const char *path, int runs)
{
    enum { MAXR = 32 };
    runs = runs < 1 ? 1 : runs > MAXR ? MAXR : runs;
    struct iodfg_error err;
    iodfg_error_clear(&err);
    double t0 = now_ms();
    struct iodfg_eventlog *log = iodfg_store_load(path, PICTURE_COLUMNS, NULL, NULL, &err);
    if (!log) {
        die(&err);
    }
    fprintf(stderr, "log: %llu events in %u cases, loaded in %.0f ms\n",
            (unsigned long long)iodfg_eventlog_event_count(log), iodfg_eventlog_case_count(log),
            now_ms() - t0);
    int saved;
    struct tui_ui *ui = open_ui(&saved);
    double heat[MAXR], hzoom[MAXR], hshade[MAXR], hrows[MAXR], off[MAXR], ozoom[MAXR], omarks[MAXR];
    double oready[MAXR], ojob[MAXR], heat_cpu[MAXR], ojob_cpu[MAXR];
    double app_ms = 0;
    for (int i = 0; i < runs; i++) {
        t0 = now_ms();
        struct tui_app *app = tui_app_new(log, 0, "log.h5", NULL, NULL, &err);
        if (!app) {
            dup2(saved, 1);
            die(&err);
        }
        app_ms += now_ms() - t0;
        tui_ui_draw(ui, app); // the Activities view, as at start-up
        heat[i] = timed_key_cpu(ui, app, TUI_CMD_VIEW_HEATMAP, &heat_cpu[i]);
        hzoom[i] = timed_key(ui, app, TUI_CMD_ZOOM_IN);
        hshade[i] = timed_key(ui, app, TUI_CMD_METRIC_NEXT);
        hrows[i] = timed_key(ui, app, TUI_CMD_ROWS_NEXT);
        t0 = now_ms();
        off[i] = timed_key(ui, app, TUI_CMD_VIEW_OFFSETS);
        struct tui_offsets_view *ov = tui_app_view_state(app, TUI_VIEW_OFFSETS);
        while (ov->job) { // built in the background: the loop polls, keys stay live
            struct timespec ts = {0, 500000};
            nanosleep(&ts, NULL);
            if (tui_app_poll(app), !ov->job) {
                tui_ui_draw(ui, app);
            }
        }
        oready[i] = now_ms() - t0;
        ojob[i] = ov->build_ms;
        ojob_cpu[i] = ov->build_cpu_ms;
        ozoom[i] = timed_key(ui, app, TUI_CMD_ZOOM_IN);
        omarks[i] = timed_key(ui, app, TUI_CMD_MARKS_NEXT);
        tui_app_free(app);
    }
    tui_ui_close(ui);
    dup2(saved, 1);
    fprintf(stderr, "app (rules, analysis, tables): %.0f ms a run (not timed below)\n",
            app_ms / runs);
    report("heatmap view: first draw", heat, runs, 200);
    report("heatmap view: first draw, CPU", heat_cpu, runs, 200);
    report("heatmap view: zoom in", hzoom, runs, 200);
    report("heatmap view: next shade", hshade, runs, 16);
    report("heatmap view: rows by host", hrows, runs, 200);
    report("offsets view: first frame (UI)", off, runs, 16);
    report("offsets view: first draw", oready, runs, 200);
    report("offsets view: its background build", ojob, runs, 200);
    report("offsets view: the build, CPU", ojob_cpu, runs, 200);
    report("offsets view: zoom in", ozoom, runs, 16);
    report("offsets view: marks by read/write", omarks, runs, 16);
    iodfg_eventlog_free(log);
    return 0;
}

int main(int argc, char **argv)
{
    for (int i = 1; i + 1 < argc; i++) {
        if (!strcmp(argv[i], "--pictures")) {
            int runs = 5;
            for (int j = 1; j + 1 < argc; j++) {
                runs = !strcmp(argv[j], "--runs") ? atoi(argv[j + 1]) : runs;
            }
            return bench_pictures(argv[i + 1], runs);
        }
    }
    uint64_t nev = 10000000;
    uint32_t ncases = 1000;
    int sync = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--sync")) {
            sync = 1;
            continue;
        }
        if (i + 1 >= argc) {
            break;
        }
        if (!strcmp(argv[i], "--events")) {
            nev = strtoull(argv[++i], NULL, 10);
        } else if (!strcmp(argv[i], "--cases")) {
            ncases = (uint32_t)strtoul(argv[++i], NULL, 10);
        }
    }
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_eventlog *log = iodfg_eventlog_new(IODFG_COL_ANALYSIS);
    const char *cn[6] = {"openat", "write", "read", "lseek", "fsync", "close"};
    uint32_t calls[6];
    for (int i = 0; i < 6; i++) {
        calls[i] = intern(log, cn[i]);
    }
    double t0 = now_ms();
    for (uint32_t c = 0; c < ncases; c++) {
        make_case(log, c, nev / ncases, calls);
    }
    fprintf(stderr, "synthesised %llu events in %u cases: %.0f ms\n",
            (unsigned long long)iodfg_eventlog_event_count(log), ncases, now_ms() - t0);
    t0 = now_ms();
    struct tui_app *app = tui_app_new(log, 1, "synthetic.h5", NULL, NULL, &err);
    if (!app) {
        die(&err);
    }
    fprintf(stderr, "app (rules, analysis, tables):    %.0f ms\n", now_ms() - t0);
    tui_app_timeline_state(app)->async_min = sync ? UINT64_MAX : 0;
    // the real frame, drawn by curses into /dev/null at 100x30
    int saved;
    struct tui_ui *ui = open_ui(&saved);
    enum { N = 40 };
    double v[N];
    static const enum tui_cmd keys[] = {TUI_CMD_MOVE_DOWN, TUI_CMD_SORT_NEXT, TUI_CMD_MOVE_UP,
                                        TUI_CMD_VIEW_TRANSITIONS, TUI_CMD_VIEW_ACTIVITIES};
    tui_ui_draw(ui, app);
    for (int i = 0; i < N; i++) {
        double s = now_ms();
        tui_app_command(app, keys[i % 5]);
        tui_ui_draw(ui, app);
        v[i] = now_ms() - s;
    }
    double g[N];
    tui_app_command(app, TUI_CMD_VIEW_GRAPH);
    for (int i = 0; i < N; i++) {
        double s = now_ms();
        tui_app_command(app, i % 2 ? TUI_CMD_MOVE_UP : TUI_CMD_MOVE_DOWN);
        tui_ui_draw(ui, app);
        g[i] = now_ms() - s;
    }
    double tl[10];
    tui_app_command(app, TUI_CMD_VIEW_TIMELINE);
    double s0 = now_ms();
    tui_ui_draw(ui, app); // the first entry starts the index of the activities' events
    double first = now_ms() - s0;
    double first_ready = until_ready(ui, app) + first, first_job = tui_app_timeline_state(app)->index_ms;
    s0 = now_ms();
    tui_ui_draw(ui, app); // the chart
    double first_chart = now_ms() - s0;
    uint32_t a0 = tui_app_timeline_state(app)->activity;
    uint64_t a0_events = tui_app_timeline_state(app)->nrows ? tui_app_timeline_state(app)->row_off[tui_app_timeline_state(app)->nrows] : 0;
    for (int i = 0; i < 10; i++) {
        double s = now_ms();
        tui_app_command(app, i % 2 ? TUI_CMD_ZOOM_OUT : TUI_CMD_ZOOM_IN);
        tui_ui_draw(ui, app);
        tl[i] = now_ms() - s;
    }
    // the Timeline step by step: each kind of key separately
    enum { NZ = 8, NT = 16 };
    double zin[NT], zout[NT], pan[NT], fit[NT], scroll[NT], act[NT];
    int nzin = 0, nzout = 0, npan = 0, nfit = 0, nscroll = 0, nact = 0;
    for (int round = 0; round < 2; round++) { // fit, zoom in NZ times, back out NZ times
        tui_app_command(app, TUI_CMD_FIT);
        tui_ui_draw(ui, app);
        for (int i = 0; i < NZ; i++) {
            zin[nzin++] = timed_key(ui, app, TUI_CMD_ZOOM_IN);
        }
        for (int i = 0; i < NZ; i++) {
            zout[nzout++] = timed_key(ui, app, TUI_CMD_ZOOM_OUT);
        }
    }
    for (int zoom = 1; zoom <= 6; zoom += 5) { // wide and narrow windows, right then left
        tui_app_command(app, TUI_CMD_FIT);
        for (int i = 0; i < zoom; i++) {
            tui_app_command(app, TUI_CMD_ZOOM_IN);
        }
        tui_ui_draw(ui, app);
        for (int i = 0; i < NZ; i++) {
            pan[npan++] = timed_key(ui, app, i < NZ / 2 ? TUI_CMD_PAN_RIGHT : TUI_CMD_PAN_LEFT);
        }
    }
    for (int i = 0; i < 10; i++) { // fit from a zoomed window
        for (int j = 0; j <= i % 4; j++) {
            tui_app_command(app, TUI_CMD_ZOOM_IN);
        }
        tui_ui_draw(ui, app);
        fit[nfit++] = timed_key(ui, app, TUI_CMD_FIT);
    }
    tui_app_command(app, TUI_CMD_ZOOM_IN);
    tui_app_command(app, TUI_CMD_ZOOM_IN);
    tui_ui_draw(ui, app);
    for (int i = 0; i < NT; i++) { // the row cursor past the page, down then up
        scroll[nscroll++] = timed_key(ui, app, i < 12 ? TUI_CMD_PAGE_DOWN : TUI_CMD_MOVE_UP);
    }
    for (int i = 0; i < 12; i++) { // the next activities and back, keeping the zoom
        act[nact++] = timed_key(ui, app, i < 6 ? TUI_CMD_ACTIVITY_NEXT : TUI_CMD_ACTIVITY_PREV);
    }
    // rebuilds while the Timeline is shown: a filter on cases added and popped, a rule added
    // and its undo / redo; each frame after it, then the wait until the index is ready. Each
    // added filter selects cases not selected before (a rebuild); a pop returns to all cases,
    // whose results the engine kept (a swap): they are timed apart.
    enum { NC = 10 };
    static const char *const filters[NC / 2] = {"name~ssf", "name~fpp", "name~host1_",
                                                "name~host2_", "name~host3_"};
    double fnew[NC / 2], fpop[NC / 2], fdraw[NC], rrb[NC], rdraw[NC];
    double fready = 0, rready = 0, job_ms = 0;
    for (int i = 0; i < NC; i++) {
        if (i % 2 == 0) {
            timed_change(ui, app, TUI_CMD_ADD_FILTER, filters[i / 2], &fnew[i / 2], &fdraw[i]);
        } else {
            timed_change(ui, app, TUI_CMD_POP_FILTER, NULL, &fpop[i / 2], &fdraw[i]);
        }
        double w = until_ready(ui, app) + fdraw[i];
        fready = w > fready ? w : fready;
        job_ms = tui_app_timeline_state(app)->index_ms > job_ms ? tui_app_timeline_state(app)->index_ms : job_ms;
    }
    // changes in quick succession: each cancels the job of the one before
    double qrb[NC], qdraw[NC], qready;
    for (int i = 0; i < NC; i++) {
        timed_change(ui, app, i % 2 ? TUI_CMD_POP_FILTER : TUI_CMD_ADD_FILTER,
                     i % 2 ? NULL : "name~ssf", &qrb[i], &qdraw[i]);
    }
    qready = until_ready(ui, app);
    tui_app_command(app, TUI_CMD_VIEW_RULES);
    tui_app_command(app, TUI_CMD_MOVE_FIRST); // the first rule
    tui_app_command(app, TUI_CMD_RULE_ADD);
    tui_app_prompt_change(app, "map path ~ ^/p/scratch/(ssf|fpp)/ => {call}:$1");
    tui_app_prompt_done(app, "map path ~ ^/p/scratch/(ssf|fpp)/ => {call}:$1");
    tui_app_second_wait(app); // its second tier, not timed (a user reads the counts meanwhile)
    tui_app_command(app, TUI_CMD_VIEW_TIMELINE);
    tui_ui_draw(ui, app);
    until_ready(ui, app);
    for (int i = 0; i < NC; i++) {
        timed_change(ui, app, i % 2 ? TUI_CMD_REDO : TUI_CMD_UNDO, NULL, &rrb[i], &rdraw[i]);
        double w = until_ready(ui, app) + rdraw[i];
        rready = w > rready ? w : rready;
        job_ms = tui_app_timeline_state(app)->index_ms > job_ms ? tui_app_timeline_state(app)->index_ms : job_ms;
    }
    // live rule edits: ssf/fpp apart, then folded, as typing in the Rules view does. The
    // Characterisation job that the Timeline view started for the last rebuild above finishes
    // first (a user moving from the Timeline to the Rules view takes longer than it does), so
    // the edits are timed on their own, not against a leftover niced background job.
    tui_app_charz_wait(app);
    until_ready(ui, app);
    tui_app_command(app, TUI_CMD_VIEW_RULES);
    tui_app_command(app, TUI_CMD_MOVE_FIRST); // the first rule
    tui_app_command(app, TUI_CMD_RULE_ADD);
    // The first text maps as the rules already do (nothing to rebuild): it is not timed, so
    // every timed edit moves events between activities.
    tui_app_prompt_change(app, "map path ~ ^/p/scratch/ => {call}:scratch");
    tui_ui_draw(ui, app);
    double r[10];
    for (int i = 0; i < 10; i++) {
        double s = now_ms();
        tui_app_prompt_change(app, i % 2 ? "map path ~ ^/p/scratch/ => {call}:scratch"
                                         : "map path ~ ^/p/scratch/(ssf|fpp)/ => {call}:$1");
        tui_ui_draw(ui, app);
        r[i] = now_ms() - s;
    }
    tui_app_prompt_done(app, NULL);
    tui_ui_close(ui);
    dup2(saved, 1);
    report("redraw after a key (tables)", v, N, 16);
    report("redraw after a key (graph)", g, N, 16);
    report("timeline zoom (recompute + draw)", tl, 10, 16);
    fprintf(stderr, "%-34s %7.2f ms  (target <= 16 ms; %s, %llu events, %s index)\n",
            "timeline first entry (UI)", first,
            a0 != UINT32_MAX ? tui_app_activity_name(app, a0) : "all",
            (unsigned long long)a0_events, sync ? "synchronous" : "background");
    fprintf(stderr, "%-34s %7.2f ms  (the job %.2f ms; then the chart %.2f ms)\n",
            "timeline first entry: index ready", first_ready, first_job, first_chart);
    report("timeline zoom in", zin, nzin, 16);
    report("timeline zoom out", zout, nzout, 16);
    report("timeline pan", pan, npan, 16);
    report("timeline fit", fit, nfit, 16);
    report("timeline row scroll", scroll, nscroll, 16);
    report("timeline activity change", act, nact, 16);
    report("timeline: new filter, rebuild", fnew, NC / 2, 100);
    report("timeline: filter popped, rebuild", fpop, NC / 2, 100);
    report("timeline: filter change, redraw", fdraw, NC, 16);
    report("timeline: rule undo/redo, rebuild", rrb, NC, 100);
    report("timeline: rule undo/redo, redraw", rdraw, NC, 16);
    fprintf(stderr, "%-34s max %7.2f ms after a filter, %.2f ms after a rule (jobs <= %.2f ms)\n",
            "timeline: index ready", fready, rready, job_ms);
    report("timeline: change mid-index, redraw", qdraw, NC, 16);
    fprintf(stderr, "%-34s %7.2f ms after the last of them\n", "timeline: index ready", qready);
    report("rule edit to updated tables", r, 10, 80);
    tui_app_free(app);
    return 0;
}
