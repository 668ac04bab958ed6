/* SPDX-License-Identifier: MIT */
/* iodfg-mpi convert: process 0 lists the inputs; every process parses a run of consecutive files
 * of about the same number of bytes; the tables are merged as a serial convert builds them
 * (mpi_merge.c); process 0 writes ONE file as the serial writer does, its own files' events as
 * they are parsed, then every other process's, which each codes and sends it
 * (iodfg_store_par_write), under a temporary name that process 0 renames once every process
 * succeeded. The same options as `iodfg convert`; one process runs `iodfg convert` itself. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "iodfg/atomicfile.h"
#include "iodfg/buf.h"
#include "iodfg/casename.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/handles.h"
#include "iodfg/ingest.h"
#include "iodfg/mounts.h"
#include "iodfg/share.h"
#include "iodfg/store_par.h"

#include "cmdline/cli.h"
#include "cmdline/cli_convert.h"
#include "cmdline/cli_tempfile.h"
#include "mpi_comm.h"
#include "mpi_main.h"
#include "mpi_merge.h"
#include "mpi_phases.h"
#include "mpi_stacks.h"

struct convert {
    const struct mpi_job *job;
    struct cli_convert_opts o;
    char **inputs;
    int ninputs;
    struct iodfg_casename *names;
    struct iodfg_mounts *mounts;
    struct iodfg_input_list files;     // every process: the whole list
    uint64_t *sizes;                   // bytes of each file
    size_t lo, hi;                     // this process's files
    struct iodfg_eventlog *part;       // this process's cases (process 0: their tables only)
    struct iodfg_store_par_sink *sink; // process 0: the log, its files' events streamed to it
    struct cli_ingest_totals totals;
    uint64_t cases;
    uint64_t reserved; // events the part has room for
    char *tmp;         // the temporary file beside the output, made before the parse
    struct mpi_progress bar;
    struct mpi_phases ph;
};

/* ---- the input list, made by process 0 ---- */

static void pack_list(const struct convert *cv, struct iodfg_buf *b)
{
    uint64_t n = cv->files.n;
    iodfg_buf_add(b, &n, sizeof(n));
    for (size_t i = 0; i < cv->files.n; i++) {
        const struct iodfg_input *f = &cv->files.files[i];
        struct stat st;
        uint64_t size = stat(f->path, &st) == 0 ? (uint64_t)st.st_size : 0;
        uint64_t lens[3] = {strlen(f->path), (uint64_t)(f->rel - f->path), strlen(f->name)};
        iodfg_buf_add(b, &size, sizeof(size));
        iodfg_buf_add(b, lens, sizeof(lens));
        iodfg_buf_add(b, f->path, lens[0] + 1);
        iodfg_buf_add(b, f->name, lens[2] + 1);
    }
}

static int unpack_list(struct convert *cv, const char *p, uint64_t len)
{
    const char *end = p + len;
    uint64_t n;
    if (len < sizeof(n)) {
        return -1;
    }
    memcpy(&n, p, sizeof(n));
    p += sizeof(n);
    if (n > len) {
        return -1;
    }
    if (cv->job->rank != 0) {
        cv->files.files = calloc((size_t)n + 1, sizeof(*cv->files.files));
        if (!cv->files.files) {
            return -1;
        }
        cv->files.n = 0;
    }
    cv->sizes = calloc((size_t)n + 1, sizeof(*cv->sizes));
    for (uint64_t i = 0; cv->sizes && i < n; i++) {
        uint64_t lens[3];
        if ((size_t)(end - p) < sizeof(uint64_t) + sizeof(lens)) {
            return -1;
        }
        memcpy(&cv->sizes[i], p, sizeof(uint64_t));
        memcpy(lens, p + sizeof(uint64_t), sizeof(lens));
        p += sizeof(uint64_t) + sizeof(lens);
        if ((uint64_t)(end - p) < lens[0] + lens[2] + 2 || lens[1] > lens[0]) {
            return -1;
        }
        if (cv->job->rank != 0) {
            struct iodfg_input *f = &cv->files.files[cv->files.n++];
            f->path = strndup(p, lens[0]);
            f->name = strndup(p + lens[0] + 1, lens[2]);
            if (!f->path || !f->name) {
                return -1;
            }
            f->rel = f->path + lens[1];
        }
        p += lens[0] + lens[2] + 2;
    }
    return cv->sizes ? 0 : -1;
}

/* Process 0 lists (and says what it skipped); every process gets the list and the file sizes. */
static int share_list(struct convert *cv, struct iodfg_error *err)
{
    int rc = 0;
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    if (cv->job->rank == 0) {
        rc = cli_check_inputs(cv->inputs, (size_t)cv->ninputs, 0, err) ||
             iodfg_ingest_list((const char *const *)cv->inputs, (size_t)cv->ninputs, cv->names,
                               &cv->files, err);
        if (rc == 0) {
            cli_list_notes(&cv->files, cv->o.in.quiet);
            pack_list(cv, &b);
            rc = b.failed ? iodfg_error_set(err, IODFG_E_NOMEM, NULL) : 0;
        }
    }
    if (mpi_agree(cv->job, rc, err)) {
        iodfg_buf_fini(&b);
        return -1;
    }
    char *data = b.data;
    uint64_t len = b.len;
    rc = mpi_bcast_bytes(cv->job, &data, &len, err);
    if (rc == 0 && unpack_list(cv, data, len)) {
        rc = iodfg_error_set(err, IODFG_E_NOMEM, "cannot take the list of input files");
    }
    if (data != b.data) {
        free(data);
    }
    iodfg_buf_fini(&b);
    return mpi_agree(cv->job, rc, err);
}

/* Files [lo, hi) of this process: consecutive runs of about total/size bytes each (a file goes
 * to the process whose share holds its middle byte). */
static void split_by_bytes(struct convert *cv)
{
    iodfg_share_of(cv->sizes, cv->files.n, cv->job->rank, cv->job->size, &cv->lo, &cv->hi);
}

/* ---- parsing ---- */

static int append_case(void *ctx, const struct iodfg_eventlog *one,
                       const struct iodfg_ingest_file *file, struct iodfg_error *err)
{
    struct convert *cv = ctx;
    cli_totals_add(&cv->totals, file->path, &file->result, file->named_by_pattern);
    cv->cases += iodfg_eventlog_case_count(one);
    uint32_t hbase = iodfg_eventlog_handle_count(cv->part);
    // room for twice the events when they do not fit: the append reserves room for exactly as many
    // events as it adds, and a realloc per file past the first estimate (a copy of the whole part
    // under ASan, which does not grow in place) cost 13 s of CPU on 5,000 small files
    uint64_t need = iodfg_eventlog_event_count(cv->part) + iodfg_eventlog_event_count(one);
    if (need > cv->reserved) {
        cv->reserved = need > 2 * cv->reserved ? need : 2 * cv->reserved;
        if (iodfg_eventlog_reserve(cv->part, cv->reserved, err)) {
            return -1;
        }
    }
    if (iodfg_eventlog_append(cv->part, one, err)) {
        return -1;
    }
    // process 0's ids are the file's: its events go to the log now, through memory the writer
    // reuses, instead of into the part's fresh memory (whose zeroing the kernel charged as much
    // as the parse)
    return cv->sink ? iodfg_store_par_stream(cv->sink, one, cv->part, hbase, err) : 0;
}

static int parse_mine(struct convert *cv, struct iodfg_error *err)
{
    struct iodfg_input_list mine = {.files = cv->files.files + cv->lo, .n = cv->hi - cv->lo};
    uint64_t bytes = 0;
    for (size_t i = cv->lo; i < cv->hi; i++) {
        bytes += cv->sizes[i];
    }
    cv->part = iodfg_eventlog_new(cv->sink ? 0 : IODFG_COL_ALL);
    int rc = cv->part ? 0 : iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    cv->reserved = bytes / 120; // about 120 B a line
    if (rc == 0 && iodfg_eventlog_reserve(cv->part, cv->reserved, err)) {
        rc = -1;
    }
    struct iodfg_ingest_opts io = {.names = cv->names,
                                   .jobs = cv->o.in.jobs, // 0: the processors it may use
                                   .columns = IODFG_COL_ALL,
                                   .progress = mpi_progress_step,
                                   .progress_ctx = &cv->bar,
                                   .mounts = cv->mounts,
                                   .csv = cv->o.in.csv};
    if (rc == 0 && mine.n) {
        rc = iodfg_ingest_run(&mine, &io, append_case, cv, err);
    }
    mpi_progress_done(&cv->bar);
    return mpi_agree(cv->job, rc, err);
}

/* Every process's totals added up on every process (the first problem: the lowest process's). */
static void sum_totals(struct convert *cv)
{
    struct cli_ingest_totals *t = &cv->totals;
    uint64_t *fields[] = {&t->files,    &t->lines,      &t->bytes,
                          &t->events,   &t->by_pattern, &t->files_without_events,
                          &t->archives, &t->records};
    enum { NF = sizeof(fields) / sizeof(fields[0]) };
    uint64_t v[NF + IODFG_COUNT__N + IODFG_CLOCK__N];
    int n = 0;
    for (int i = 0; i < NF; i++) {
        v[n++] = *fields[i];
    }
    memcpy(v + n, t->counts, sizeof(t->counts));
    memcpy(v + n + IODFG_COUNT__N, t->clocks, sizeof(t->clocks));
    mpi_sum_u64(cv->job, v, NF + IODFG_COUNT__N + IODFG_CLOCK__N);
    for (int i = 0; i < NF; i++) {
        *fields[i] = v[i];
    }
    memcpy(t->counts, v + n, sizeof(t->counts));
    memcpy(t->clocks, v + n + IODFG_COUNT__N, sizeof(t->clocks));
    int mine = t->first_problem[0] ? cv->job->rank : cv->job->size, first = cv->job->size;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, cv->job->comm);
    if (first < cv->job->size) {
        MPI_Bcast(t->first_problem, (int)sizeof(t->first_problem), MPI_CHAR, first, cv->job->comm);
    }
    mpi_sum_u64(cv->job, &cv->cases, 1);
}

/* ---- writing ---- */

/* On process 0: whether the output may be written (it is absent, or --force and not one of the
 * inputs). */
static int output_free(const struct convert *cv, struct iodfg_error *err)
{
    struct stat st;
    if (lstat(cv->o.out, &st) != 0) {
        return 0;
    }
    if (cv->o.force) {
        return iodfg_ingest_list_check_output(&cv->files, cv->o.out, err);
    }
    iodfg_error_set(err, IODFG_E_EXISTS, "file exists (use --force to overwrite)");
    iodfg_error_at(err, cv->o.out, 0, 0);
    return -1;
}

/* Process 0 makes the temporary file beside the output and tells the others its name. Done
 * before the parse, as iodfg convert does: a job is not to read every trace to be refused. */
static int make_temp(struct convert *cv, char **tmp, struct iodfg_error *err)
{
    int rc = 0;
    uint64_t len = 0;
    *tmp = NULL;
    if (cv->job->rank == 0) {
        struct iodfg_error ignored;
        iodfg_atomic_clean_stale(cv->o.out, cli_convert_stale_note, NULL, &ignored);
        if (output_free(cv, err)) {
            rc = -1;
        } else {
            int fd = iodfg_atomic_tmpfile(cv->o.out, tmp, err);
            rc = fd < 0 ? -1 : close(fd);
            len = *tmp ? strlen(*tmp) + 1 : 0;
        }
    }
    if (mpi_agree(cv->job, rc, err) || mpi_bcast_bytes(cv->job, tmp, &len, err)) {
        if (cv->job->rank == 0 && *tmp) {
            unlink(*tmp);
        }
        free(*tmp);
        *tmp = NULL;
        return -1;
    }
    return 0;
}

/* The parsed parts into the temporary file: the tables merged, then one collective write. */
static int write_log(struct convert *cv, struct iodfg_error *err)
{
    struct iodfg_buf packed;
    iodfg_buf_init(&packed);
    int rc = mpi_tables_pack(cv->part, &packed) ? iodfg_error_set(err, IODFG_E_NOMEM, NULL) : 0;
    char *all = NULL;
    uint64_t *off = NULL;
    struct mpi_merged m;
    memset(&m, 0, sizeof(m));
    if (mpi_agree(cv->job, rc, err) == 0 &&
        mpi_allgather_bytes(cv->job, packed.data, packed.len, &all, &off, err) == 0) {
        mpi_phase(&cv->ph, "tables: gather");
        rc = mpi_tables_merge(all, off, iodfg_eventlog_handle_get(cv->part, 1),
                              iodfg_eventlog_handle_count(cv->part), cv->job->size, cv->job->rank,
                              &m, err);
        mpi_phase(&cv->ph, "tables: merge");
    } else {
        rc = -1;
    }
    iodfg_buf_fini(&packed);
    free(all);
    free(off);
    struct mpi_stacks stk = {0};
    if (mpi_agree(cv->job, rc, err) == 0 &&
        mpi_stacks_merge(cv->job, cv->part, m.smap, &stk, err) == 0) {
        mpi_phase(&cv->ph, "stacks: gather, merge");
        struct iodfg_store_par_meta meta = {m.tab,      m.nhandles,  m.max_handles,
                                            m.cases,    m.ncases,    m.case_first,
                                            m.max_rows, cv->o.views, stk.tab};
        // the log's handles: mpi_tables_merge moved them to the file's ids
        struct iodfg_store_par_part part = {cv->part,
                                            m.smap,
                                            m.kmap,
                                            m.hbase,
                                            m.first,
                                            iodfg_eventlog_handles(cv->part),
                                            iodfg_eventlog_handle_count(cv->part),
                                            stk.ids}; // strace -k: ids in the merged table
        // A job that cannot be written is refused before it writes (when every process wrote
        // through parallel HDF5, a full disk left the job waiting forever): process 0 checks.
        rc = cv->job->rank == 0 ? iodfg_atomic_reserve(cv->o.out, iodfg_store_par_bytes(&meta), err)
                                : 0;
        if (mpi_agree(cv->job, rc, err) == 0) {
            rc = iodfg_store_par_write(cv->sink, cv->tmp, &cv->job->comm, &meta, &part, err);
            cv->sink = NULL; // taken
        } else {
            rc = -1;
        }
        mpi_phase(&cv->ph, "write (process 0)");
    } else {
        rc = -1;
    }
    mpi_stacks_fini(&stk);
    mpi_merged_fini(&m);
    return mpi_agree(cv->job, rc, err);
}

/* Parse this process's share of the traces and add up the job's totals. */
static int parse_all(struct convert *cv, struct iodfg_error *err)
{
    split_by_bytes(cv);
    uint64_t total = 0;
    for (size_t i = 0; i < cv->files.n; i++) {
        total += cv->sizes[i];
    }
    if (mpi_progress_init(&cv->bar, cv->job, total, cv->o.in.quiet)) {
        return iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    }
    int rc = parse_mine(cv, err);
    mpi_phase(&cv->ph, "parse");
    sum_totals(cv);
    mpi_phase(&cv->ph, "totals");
    if (rc == 0 && cv->totals.events == 0) {
        if (cv->job->rank == 0 && !cv->o.in.quiet) {
            cli_totals_print(stderr, &cv->totals);
        }
        return iodfg_error_set(err, IODFG_E_ARG,
                               "no system-call event in any input: %s not written (are these "
                               "strace logs?)",
                               cv->o.out);
    }
    return rc ? -1 : 0;
}

static int run(struct convert *cv, struct iodfg_error *err)
{
    cv->names = iodfg_casename_new(cv->o.in.name_pattern, err);
    if (mpi_agree(cv->job, cv->names ? 0 : -1, err) || share_list(cv, err)) {
        return -1;
    }
    cv->mounts = cli_mounts_open(cv->inputs, (size_t)cv->ninputs, cv->o.in.mounts,
                                 cv->totals.mounts, sizeof(cv->totals.mounts), err);
    if (mpi_agree(cv->job, cv->mounts ? 0 : -1, err)) {
        return -1;
    }
    mpi_phase(&cv->ph, "list, mounts");
    if (cv->job->rank == 0) {
        cli_temp_hold(); // until the temp file is guarded (cli.h)
    }
    if (make_temp(cv, &cv->tmp, err)) {
        if (cv->job->rank == 0) {
            cli_temp_forget();
        }
        return -1;
    }
    if (cv->job->rank == 0) {
        cli_temp_guard(cv->tmp);
        cv->sink = iodfg_store_par_open(cv->tmp, cv->o.views, err);
    }
    if (mpi_agree(cv->job, cv->job->rank == 0 && !cv->sink ? -1 : 0, err)) {
        if (cv->job->rank == 0) {
            unlink(cv->tmp);
            cli_temp_forget();
        }
        return -1;
    }
    mpi_phase(&cv->ph, "temporary file");
    int rc = mpi_agree(cv->job, parse_all(cv, err), err);
    rc = rc ? -1 : write_log(cv, err);
    iodfg_store_par_abort(cv->sink); // a failure before the write
    cv->sink = NULL;
    if (cv->job->rank == 0) { // published once every process succeeded, else removed
        rc =
            rc ? (unlink(cv->tmp), -1) : iodfg_atomic_publish(cv->tmp, cv->o.out, cv->o.force, err);
        cli_temp_forget();
    }
    rc = mpi_agree(cv->job, rc, err);
    mpi_phase(&cv->ph, "agree, rename");
    return rc;
}

int mpi_convert(const struct mpi_job *job, int argc, char **argv)
{
    if (job->size == 1) {
        // one process: iodfg convert itself, which streams each file's events to the log where
        // a job holds its part until the tables are merged (fresh memory: 0.3 s of the kernel's
        // zeroing for 3.3 M events on this machine)
        return cli_convert(argc, argv);
    }
    struct convert cv;
    memset(&cv, 0, sizeof(cv));
    cv.job = job;
    int first = 0;
    int rc = cli_convert_getopt(argc, argv, &cv.o, &first);
    if (rc) {
        return rc < 0 ? CLI_OK : rc;
    }
    cv.inputs = argv + first;
    cv.ninputs = argc - first;
    double t0 = MPI_Wtime();
    mpi_phases_start(&cv.ph, job);
    struct iodfg_error err;
    iodfg_error_clear(&err);
    if (run(&cv, &err)) {
        if (job->rank == 0) {
            cli_error(&err);
        }
        rc = CLI_FAIL;
    } else {
        double dt = MPI_Wtime() - t0;
        rc = job->rank == 0 ? cli_convert_report(&cv.o, &cv.totals, cv.cases, dt) : CLI_OK;
        MPI_Bcast(&rc, 1, MPI_INT, 0, job->comm);
    }
    mpi_phase(&cv.ph, "report");
    mpi_phases_report(&cv.ph);
    mpi_progress_fini(&cv.bar);
    iodfg_eventlog_free(cv.part);
    iodfg_ingest_list_fini(&cv.files);
    free(cv.sizes);
    iodfg_mounts_free(cv.mounts);
    iodfg_casename_free(cv.names);
    free(cv.tmp);
    return rc;
}
