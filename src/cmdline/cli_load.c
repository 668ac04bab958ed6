/* SPDX-License-Identifier: MIT */
/* Loading what a command reads: one event log, or trace files and directories converted in
 * memory (with their mount table); the inputs checked first; a rules file or preset. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "iodfg/casename.h"
#include "iodfg/error.h"
#include "iodfg/ingest.h"
#include "iodfg/insights.h"
#include "iodfg/mounts.h"
#include "iodfg/rules.h"
#include "iodfg/store.h"
#include "iodfg/textfile.h"

#include "cli.h"
#include "cli_progress.h"

static int ends_with_h5(const char *path)
{
    size_t len = strlen(path);
    return len > 3 && strcasecmp(path + len - 3, ".h5") == 0;
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

struct load_ctx {
    struct iodfg_eventlog *log;
    struct cli_ingest_totals *totals;
    uint64_t total_bytes, seen_bytes; // of the input files; of those appended so far
    uint64_t reserved;                // events the log has room for, reserved here
};

/* Room for the events all files will give, projected from those seen so far (by bytes): the
 * log then grows once, not by doubling (which touches about twice its size in fresh pages).
 * Only advice: where the room cannot be had, the append grows the log as it needs. */
static void reserve_projected(struct load_ctx *lc, uint64_t need)
{
    if (need <= lc->reserved || !lc->seen_bytes || lc->seen_bytes >= lc->total_bytes) {
        return;
    }
    double projected = (double)need * (double)lc->total_bytes / (double)lc->seen_bytes * 1.1;
    struct iodfg_error ignored;
    iodfg_error_clear(&ignored);
    if (projected < (double)(UINT64_MAX / 64) &&
        iodfg_eventlog_reserve(lc->log, (uint64_t)projected, &ignored) == 0) {
        lc->reserved = (uint64_t)projected;
    }
}

static int append_case(void *ctx, const struct iodfg_eventlog *one,
                       const struct iodfg_ingest_file *file, struct iodfg_error *err)
{
    struct load_ctx *lc = ctx;
    cli_totals_add(lc->totals, file->path, &file->result, file->named_by_pattern);
    lc->seen_bytes += file->result.bytes;
    uint64_t need = iodfg_eventlog_event_count(lc->log) + iodfg_eventlog_event_count(one);
    reserve_projected(lc, need);
    return iodfg_eventlog_append(lc->log, one, err);
}

static uint64_t input_bytes(const struct iodfg_input_list *files)
{
    uint64_t total = 0;
    for (size_t i = 0; i < files->n; i++) {
        struct stat st;
        if (stat(files->files[i].path, &st) == 0 && S_ISREG(st.st_mode)) {
            total += (uint64_t)st.st_size;
        }
    }
    return total;
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

struct iodfg_eventlog *cli_log_finish(struct iodfg_eventlog *log, const struct cli_ingest_opts *o,
                                      struct cli_ingest_totals *totals, struct iodfg_error *err)
{
    // keep the classification stored by convert unless --mounts is given
    if (!o->mounts && iodfg_mounts_log_classified(log)) {
        snprintf(totals->mounts, sizeof(totals->mounts), "stored in the log");
    } else {
        struct iodfg_mounts *m =
            cli_mounts_open(NULL, 0, o->mounts, totals->mounts, sizeof(totals->mounts), err);
        int rc = !m || iodfg_mounts_classify(m, log, err);
        iodfg_mounts_free(m);
        if (rc) {
            iodfg_eventlog_free(log);
            return NULL;
        }
    }
    return align(log, o, err);
}

struct iodfg_eventlog *cli_load(char *const *inputs, size_t n, unsigned columns,
                                const struct cli_ingest_opts *o, struct cli_ingest_totals *totals,
                                struct iodfg_error *err)
{
    memset(totals, 0, sizeof(*totals));
    if (cli_check_inputs(inputs, n, 1, err)) {
        return NULL;
    }
    if (n == 1 && iodfg_store_is_hdf5(inputs[0])) {
        struct iodfg_eventlog *log =
            iodfg_store_load(inputs[0], columns, o->quiet ? NULL : cli_progress, NULL, err);
        cli_progress_end();
        return log ? cli_log_finish(log, o, totals, err) : NULL;
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
        struct load_ctx lc = {log, totals, input_bytes(&files), 0, 0};
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

// The thresholds: the defaults t holds, then the file (--thresholds, else insights.conf).
int cli_insight_thresholds_file(const char *file, struct iodfg_insight_thresholds *t)
{
    char def[4096];
    const char *path = file;
    const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
    struct stat st;
    if (!path && ((xdg && *xdg) || (home && *home))) {
        snprintf(def, sizeof(def), "%s%s/iodfg/insights.conf", xdg && *xdg ? xdg : home,
                 xdg && *xdg ? "" : "/.config");
        path = stat(def, &st) == 0 ? def : NULL;
    }
    struct iodfg_error err;
    iodfg_error_clear(&err);
    if (path) {
        size_t len;
        char *text = iodfg_textfile_read(path, "thresholds file", (size_t)1 << 20, &len, &err);
        if (!text) {
            cli_error(&err);
            return CLI_FAIL;
        }
        int rc = iodfg_insight_thresholds_parse(t, text, len, path, &err);
        if (rc) {
            cli_error_caret(&err, text, len);
        }
        free(text);
        if (rc) {
            return CLI_FAIL;
        }
    }
    return CLI_OK;
}
