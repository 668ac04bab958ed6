/* SPDX-License-Identifier: MIT */
/* iodfg-mpi dfg, stats and characterize: iodfg's commands (their options and reports) over one
 * part of the log per process. Each process opens its range of the log's cases and sets the job
 * on its session (session_job.h: the part, and the reductions below); the session's rebuild then
 * combines the parts' results exactly into process 0's session (mpi_results.c, mpi_charz.c),
 * which writes the output as iodfg would. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/filter.h"
#include "iodfg/session.h"
#include "iodfg/share.h"
#include "iodfg/store.h"

#include "cmdline/cli_analyze.h"
#include "mpi_main.h"
#include "mpi_phases.h"
#include "mpi_stacks.h"

/* ---- the session job's reductions ---- */

static int part_agree(void *ctx, int rc, struct iodfg_error *err)
{
    const struct mpi_part *p = ctx;
    return mpi_agree(p->job, rc, err);
}

static void part_sum(void *ctx, uint32_t *v, size_t n)
{
    const struct mpi_part *p = ctx;
    MPI_Allreduce(MPI_IN_PLACE, v, (int)n, MPI_UINT32_T, MPI_SUM, p->job->comm);
}

/* The cases shared by groups G and R on every process, added up in process order: the count
 * summed, the first few names in case order. */
static int part_overlaps(void *ctx, struct iodfg_groups_overlap *ov, struct iodfg_error *err)
{
    const struct mpi_part *p = ctx;
    char *parts = NULL;
    uint64_t *off = NULL;
    if (mpi_allgather_bytes(p->job, ov, sizeof(*ov), &parts, &off, err)) {
        return -1;
    }
    memset(ov, 0, sizeof(*ov));
    for (int k = 0; k < p->job->size; k++) {
        iodfg_filter_overlap_add(ov, (const void *)(parts + off[k]));
    }
    free(parts);
    free(off);
    return 0;
}

/* Cases [first, first + count) of ncases: consecutive, in process order, of about the same
 * number of events each (one process's case may hold most of a job's I/O). */
static void part_cases(void *ctx, uint64_t ncases, const uint64_t *events, uint32_t *first,
                       uint32_t *count)
{
    struct mpi_part *p = ctx;
    size_t lo, hi;
    iodfg_share_of(events, (size_t)ncases, p->job->rank, p->job->size, &lo, &hi);
    *first = (uint32_t)lo;
    *count = (uint32_t)(hi - lo);
    p->sj.first_case = *first;
}

static void part_init(struct mpi_part *p, const struct mpi_job *job, int merge_sweeps)
{
    memset(p, 0, sizeof(*p));
    p->job = job;
    p->sj = (struct iodfg_job){.merge_sweeps = merge_sweeps,
                               .agree = part_agree,
                               .sum = part_sum,
                               .merge = mpi_merge_results,
                               .overlaps = part_overlaps,
                               .characterize = mpi_charz,
                               .ctx = p};
    mpi_phases_start(&p->phases, job);
}

/* ---- this process's part of the log ---- */

/* The log given (one event log: a job reads no traces), this process's cases of it. */
static struct iodfg_eventlog *load_part(struct mpi_part *p, const struct cli_analyze_opts *o,
                                        unsigned columns, struct cli_ingest_totals *totals,
                                        struct iodfg_error *err)
{
    char *const *in = o->inputs;
    size_t n = o->ninputs;
    memset(totals, 0, sizeof(*totals));
    if (cli_check_inputs(in, n, 1, err)) {
        return NULL;
    }
    if (n != 1 || !iodfg_store_is_hdf5(in[0])) { // say what the input is, and how to convert
        struct stat st;
        if (n == 1 && stat(in[0], &st) != 0) {
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
            iodfg_error_at(err, in[0], 0, 0);
        }
        return NULL;
    }
    struct iodfg_eventlog *log = iodfg_store_load_part(in[0], columns, part_cases, p, err);
    return log ? cli_log_finish(log, &o->ingest, totals, err) : NULL;
}

/* What cli_session_open does for iodfg, over this process's part, with the job on the session:
 * every process returns the same enum cli_exit, and what the first failing one said. */
static int open_part(struct mpi_part *p, const struct cli_analyze_opts *o, unsigned columns,
                     struct iodfg_eventlog **log, struct iodfg_session **ses, int *groups)
{
    const struct mpi_job *job = p->job;
    char *rules = NULL;
    size_t rules_len = 0;
    struct cli_ingest_totals totals;
    struct iodfg_error err;
    iodfg_error_clear(&err);
    int rc = cli_rules_read(o->rules_path, &rules, &rules_len);
    if (rc == CLI_OK && !(*log = load_part(p, o, columns, &totals, &err))) {
        cli_error(&err);
        rc = CLI_FAIL;
    }
    // the `site` field: keys split by call site as iodfg splits them (collective)
    if ((rc = mpi_agree_status(job, rc)) == CLI_OK &&
        mpi_sites_split(job, *log, o->focus_rules, &err)) {
        if (job->rank == 0) {
            cli_error(&err);
        }
        rc = CLI_FAIL;
    }
    if ((rc = mpi_agree_status(job, rc)) == CLI_OK) {
        // relative times count from the whole log's first event, not from each part's
        int64_t t = iodfg_eventlog_earliest_start(*log);
        MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_INT64_T, MPI_MIN, job->comm);
        if (t != INT64_MAX) {
            iodfg_eventlog_set_time_origin(*log, t);
        }
        if (!(*ses = iodfg_session_new(*log, &err)) ||
            (rules && iodfg_session_set_rules(*ses, rules, rules_len, o->rules_path, &err))) {
            cli_error(&err);
            rc = CLI_FAIL;
        } else {
            iodfg_session_set_job(*ses, &p->sj);
        }
        rc = mpi_agree_status(job, rc);
    }
    free(rules);
    mpi_phase(&p->phases, "read log, rules");
    if (rc == CLI_OK) {
        rc = mpi_agree_status(job, cli_session_inputs(*ses, o, groups));
    }
    return rc;
}

/* ---- the commands ---- */

/* The end of a command: the exit status is process 0's (it wrote the output). */
static int finish(struct mpi_part *p, int rc)
{
    MPI_Bcast(&rc, 1, MPI_INT, 0, p->job->comm);
    mpi_phase(&p->phases, "output, free");
    mpi_phases_report(&p->phases);
    return rc < 0 ? CLI_OK : rc; // -1: --help
}

int mpi_dfg(const struct mpi_job *job, int argc, char **argv)
{
    struct mpi_part p;
    struct cli_dfg_opts d;
    struct cli_analysis ca;
    cli_analysis_init(&ca);
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    int rc = cli_dfg_parse(&d, argc, argv);
    // the merge sweeps the whole log for the maximum concurrency: the parts need not sweep
    part_init(&p, job, job->size > 1);
    p.edge_gaps = cli_dfg_edge_gaps(&d);
    if (rc == CLI_OK) {
        rc = open_part(&p, &d.a, cli_analysis_columns(&d.a), &ca.log, &ca.ses, &ca.groups);
    }
    if (rc == CLI_OK) {
        rc = cli_analysis_build(&ca, &d.a, "dfg");
    }
    if (rc == CLI_OK && job->rank == 0) {
        rc = cli_dfg_report(&d, &ca, &b);
        rc = rc == CLI_OK ? cli_dfg_write(&d, &b) : rc;
    }
    iodfg_buf_fini(&b);
    cli_analysis_fini(&ca);
    cli_analyze_opts_fini(&d.a);
    return finish(&p, rc);
}

int mpi_stats(const struct mpi_job *job, int argc, char **argv)
{
    struct mpi_part p;
    struct cli_stats_opts s;
    struct cli_analysis ca;
    cli_analysis_init(&ca);
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    int rc = cli_stats_parse(&s, argc, argv);
    part_init(&p, job, job->size > 1);
    p.edge_gaps = cli_stats_edge_gaps(&s);
    if (rc == CLI_OK) {
        rc = open_part(&p, &s.a, cli_analysis_columns(&s.a), &ca.log, &ca.ses, &ca.groups);
    }
    if (rc == CLI_OK) {
        rc = cli_analysis_build(&ca, &s.a, "stats");
    }
    if (rc == CLI_OK && job->rank == 0) {
        rc = cli_stats_report(&s, &ca, &b);
        rc = rc == CLI_OK ? cli_output_write(&s.a, &b) : rc;
    }
    iodfg_buf_fini(&b);
    cli_analysis_fini(&ca);
    cli_analyze_opts_fini(&s.a);
    return finish(&p, rc);
}

int mpi_characterize(const struct mpi_job *job, int argc, char **argv)
{
    struct mpi_part p;
    struct cli_char_opts o;
    struct cli_metrics m;
    cli_metrics_init(&m);
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    int rc = cli_char_parse(&o, argc, argv);
    part_init(&p, job, 0);            // its own sweeps: nothing of the analysis is merged
    if (rc == CLI_OK && o.counters) { // no log: process 0 reads the counters alone
        rc = job->rank == 0 ? cli_char_counters(&o, &b) : CLI_OK;
    } else if (rc == CLI_OK) {
        rc = open_part(&p, &o.a, IODFG_COL_ALL | IODFG_COL_STACKS, &m.log, &m.ses, &m.groups);
        rc = rc == CLI_OK ? cli_metrics_select(&m, &o.a, 1) : rc;
        // every process characterises its part of each selection
        rc = rc == CLI_OK ? cli_char_report(&o, &m, &b) : rc;
    }
    if (rc == CLI_OK && job->rank == 0) {
        rc = cli_output_write(&o.a, &b);
    }
    iodfg_buf_fini(&b);
    cli_metrics_fini(&m);
    cli_analyze_opts_fini(&o.a);
    return finish(&p, rc);
}
