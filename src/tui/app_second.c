/* SPDX-License-Identifier: MIT */
/* A live rule edit's second tier on a background thread (bgthread.h): it starts at the first
 * pause in typing after the first tier, the keys stay live meanwhile, a further edit makes it
 * stale (its results are then dropped when it ends, and the next one starts), and only a
 * second tier that still belongs to the pending first tier is published, once, by the one path
 * results reach the views. One runs at a time, so that edits in a row do not pile up work. */
#include "config.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "iodfg/error.h"
#include "iodfg/glyph.h"
#include "iodfg/session.h"

#include "tui/app.h"
#include "tui/app_priv.h"
#include "tui/bgthread.h"

struct tui_second {
    pthread_t th;
    int threaded;
    atomic_int done;
    struct iodfg_session_second *t;
    int rc;
    struct iodfg_error err;
    double start_ms;
    double first_ms; /* app->first_ms of the first tier it belongs to */
    double hold_ms;  /* tests: it ends no sooner than this after its start */
};

static void *job_run(void *p)
{
    struct tui_second *j = p;
    j->rc = iodfg_session_second_compute(j->t, &j->err);
    double left = j->start_ms + j->hold_ms - tui_app_now_ms();
    if (left > 0) { // the tests' window in which a second tier is running
        struct timespec ts = {(time_t)(left / 1e3), (long)(((long long)left % 1000) * 1000000)};
        nanosleep(&ts, NULL);
    }
    atomic_store(&j->done, 1);
    return NULL;
}

static void job_free(struct tui_app *app)
{
    struct tui_second *j = app->second;
    if (j->threaded) {
        pthread_join(j->th, NULL);
    }
    iodfg_session_second_free(j->t);
    free(j);
    app->second = NULL;
}

/* The finished job: its results published when they are still wanted, else dropped. 0, or -1
 * when it failed. */
static int job_end(struct tui_app *app)
{
    struct tui_second *j = app->second;
    struct iodfg_error err;
    iodfg_error_clear(&err);
    int rc = j->rc;
    if (rc == 0) {
        app->second_expect_ms = iodfg_session_second_ms(j->t);
        rc = iodfg_session_second_take(app->ses, j->t, &err);
    } else if (iodfg_session_first(app->ses)) {
        err = j->err; // the rebuild's error, as the blocking second tier reported it
    } else {
        rc = 0; // it failed for inputs that are gone
    }
    job_free(app);
    if (rc < 0 || (rc == 1 && tui_app_take_results(app, &err))) {
        tui_app_report(app, "rebuild", &err);
        return -1;
    }
    return 0;
}

static void job_start(struct tui_app *app)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct tui_second *j = calloc(1, sizeof(*j));
    struct iodfg_session_second *t = j ? iodfg_session_second_new(app->ses, &err) : NULL;
    if (!t) {
        free(j);
        if (tui_app_rebuild(app, &err)) { // as before: in full here
            tui_app_report(app, "rebuild", &err);
        }
        return;
    }
    j->t = t;
    j->start_ms = tui_app_now_ms();
    j->first_ms = app->first_ms;
    j->hold_ms = app->second_hold_ms;
    atomic_init(&j->done, 0);
    app->second = j;
    j->threaded = tui_bgthread_start(&j->th, job_run, j) == 0;
    if (!j->threaded) {
        job_run(j);
    }
}

void tui_app_second_poll(struct tui_app *app)
{
    if (app->second && atomic_load(&app->second->done)) {
        job_end(app);
    }
    if (!app->second && iodfg_session_first(app->ses) &&
        tui_app_now_ms() - app->first_ms >= app->second_ms) {
        job_start(app);
    }
}

void tui_app_second_wait(struct tui_app *app)
{
    while (app->second || iodfg_session_first(app->ses)) {
        if (!app->second && (job_start(app), !app->second)) {
            return; // rebuilt in full instead
        }
        if (app->second->threaded) {
            pthread_join(app->second->th, NULL);
            app->second->threaded = 0;
        }
        if (job_end(app)) {
            return;
        }
    }
}

int tui_app_second_busy(const struct tui_app *app)
{
    return app->second != NULL;
}

void tui_app_second_stop(struct tui_app *app)
{
    if (app->second) {
        job_free(app); // it reads the log and its time order, which the session frees
    }
}

void tui_app_second_pending(const struct tui_app *app, const char *what, char *buf, size_t size)
{
    const struct tui_second *j = app->second;
    if (!j || j->first_ms != app->first_ms) { // not started, or superseded by a later edit
        snprintf(buf, size, iodfg_glyph_text(" · %s computing…"), what);
        return;
    }
    // an estimate from the last second tier's time, never 100% before it ends
    double f =
        app->second_expect_ms > 0 ? (tui_app_now_ms() - j->start_ms) / app->second_expect_ms : 0;
    f = f < 0 ? 0 : f > 0.99 ? 0.99 : f;
    char bar[64] = "";
    int utf8 = iodfg_glyph_utf8(), fill = (int)(f * 10);
    size_t n = 0;
    for (int i = 0; i < 10; i++) {
        const char *g = utf8 ? (i < fill ? "█" : "░") : (i < fill ? "#" : "-");
        n += (size_t)snprintf(bar + n, sizeof(bar) - n, "%s", g);
    }
    snprintf(buf, size, iodfg_glyph_text(" · %s computing… ~%d%% %s"), what, (int)(f * 100), bar);
}
