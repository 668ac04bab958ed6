/* SPDX-License-Identifier: MIT */
/* What characterize, bandwidth and insights measure over: the selection of the session, or its
 * groups G and R, kept to one clock where measures are binned over time. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"
#include "iodfg/report.h"
#include "iodfg/session.h"

#include "cli_analyze.h"

void cli_metrics_init(struct cli_metrics *m)
{
    memset(m, 0, sizeof(*m));
}

void cli_metrics_fini(struct cli_metrics *m)
{
    free(m->own_mask[0]);
    free(m->own_mask[1]);
    iodfg_session_free(m->ses);
    iodfg_eventlog_free(m->log);
    memset(m, 0, sizeof(*m));
}

/* Keep only the cases of the clock with the most cases in the selections when they use more
 * than one, saying so unless quiet. CLI_OK, or CLI_FAIL after a message. */
static int one_clock(struct cli_metrics *m, int quiet)
{
    uint32_t n[IODFG_CLOCK__N], all[IODFG_CLOCK__N] = {0}, nc = iodfg_eventlog_case_count(m->log);
    for (int g = 0; g < m->ngroups; g++) {
        iodfg_session_clocks(m->ses, m->sel[g].case_on, n); // of the whole log
        for (int k = 0; k < IODFG_CLOCK__N; k++) {
            all[k] += n[k];
        }
    }
    int used = 0;
    for (int k = 0; k < IODFG_CLOCK__N; k++) {
        used += all[k] > 0;
    }
    if (used < 2) {
        return CLI_OK;
    }
    enum iodfg_clock keep = iodfg_clock_majority(all);
    for (int g = 0; g < m->ngroups; g++) {
        if (!(m->own_mask[g] = malloc((size_t)nc + 1))) {
            cli_errorf("out of memory");
            return CLI_FAIL;
        }
        for (uint32_t c = 0; c < nc; c++) {
            m->own_mask[g][c] = !m->sel[g].case_on || m->sel[g].case_on[c];
        }
        iodfg_eventlog_keep_clock(m->log, m->own_mask[g], keep);
        m->sel[g].case_on = m->own_mask[g];
    }
    if (!quiet) {
        char text[200];
        iodfg_report_clocks(all, text, sizeof(text));
        cli_errorf("note: the selected cases use different clocks (%s cases); measures over "
                   "time bins cannot mix them, so only the %u %s cases are characterised "
                   "(--align start compares every case as if they started together)",
                   text, all[keep],
                   keep == IODFG_CLOCK_NONE ? "untimed" : iodfg_clock_name((enum iodfg_clock)keep));
    }
    return CLI_OK;
}

int cli_metrics_select(struct cli_metrics *m, const struct cli_analyze_opts *o, int one)
{
    struct iodfg_error err;
    iodfg_error_clear(&err);
    if (iodfg_session_prepare(m->ses, &err)) {
        cli_error(&err);
        return CLI_FAIL;
    }
    m->map = iodfg_session_mapping(m->ses);
    m->ngroups = m->groups ? 2 : 1;
    for (int g = 0; g < m->ngroups; g++) {
        iodfg_session_selection(m->ses, m->groups ? (enum iodfg_group)(g + 1) : IODFG_GROUP_NONE,
                                &m->sel[g]);
    }
    if (one) {
        return one_clock(m, o->ingest.quiet);
    }
    cli_clock_note(m->ses, m->sel[0].case_on, o->ingest.quiet);
    return CLI_OK;
}

int cli_metrics_run(struct cli_metrics *m, const struct cli_analyze_opts *o, int one)
{
    int rc =
        cli_session_open(o, o->inputs, o->ninputs, IODFG_COL_ALL | IODFG_COL_STACKS, &m->log,
                         &m->ses, &m->groups);
    return rc == CLI_OK ? cli_metrics_select(m, o, one) : rc;
}

int cli_metrics_command(const struct cli_analyze_opts *o, int one,
                        int (*report)(const void *ctx, const struct cli_metrics *m,
                                      struct iodfg_buf *b),
                        const void *ctx)
{
    struct cli_metrics m;
    cli_metrics_init(&m);
    struct iodfg_buf b;
    iodfg_buf_init(&b);
    int rc = cli_metrics_run(&m, o, one);
    if (rc == CLI_OK) {
        rc = report(ctx, &m, &b);
    }
    if (rc == CLI_OK) {
        rc = cli_output_write(o, &b);
    }
    iodfg_buf_fini(&b);
    cli_metrics_fini(&m);
    return rc;
}
