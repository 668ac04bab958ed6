/* SPDX-License-Identifier: MIT */
/* A session as one part of a job (session_job.h), and what the session answers over the whole
 * log, a part's or not (session.h): clocks and cases, and the characterisation. */
#include "config.h"

#include "iodfg/session_job.h"

#include <string.h>

#include "iodfg/characterize.h"
#include "iodfg/error.h"
#include "iodfg/eventlog.h"
#include "iodfg/filter.h"
#include "iodfg/session.h"

#include "session_priv.h"

void iodfg_session_set_job(struct iodfg_session *s, const struct iodfg_job *job)
{
    s->job = job;
    if (job && job->merge_sweeps) {
        iodfg_session_set_job_part(s);
    }
}

const struct iodfg_job *iodfg_session_job(const struct iodfg_session *s)
{
    return s->job;
}

int iodfg_session_job_agree(const struct iodfg_session *s, int rc, struct iodfg_error *err)
{
    return s->job ? s->job->agree(s->job->ctx, rc ? -1 : 0, err) : rc;
}

int iodfg_session_job_merge(struct iodfg_session *s, int rc, struct iodfg_error *err)
{
    if (!s->job) {
        return rc;
    }
    rc = s->job->agree(s->job->ctx, rc ? -1 : 0, err);
    return rc ? -1 : s->job->merge(s->job->ctx, s, err);
}

int iodfg_session_job_groups(const struct iodfg_session *s, const struct iodfg_filter_stack *g,
                             const struct iodfg_filter_stack *r, struct iodfg_error *err)
{
    if (!s->job) {
        return 0;
    }
    struct iodfg_groups_overlap ov;
    memset(&ov, 0, sizeof(ov));
    int rc = iodfg_session_groups_overlap(s, g, r, s->job->first_case, &ov, err);
    if (s->job->agree(s->job->ctx, rc, err) || s->job->overlaps(s->job->ctx, &ov, err)) {
        return -1;
    }
    return iodfg_filter_overlap_error(&ov, err);
}

int iodfg_session_clocks(const struct iodfg_session *s, const uint8_t *case_on, uint32_t *n)
{
    iodfg_eventlog_clocks(s->log, case_on, n);
    if (s->job) { // every part holds some cases: the counts are about all of them
        s->job->sum(s->job->ctx, n, IODFG_CLOCK__N);
    }
    int used = 0;
    for (int k = 0; k < IODFG_CLOCK__N; k++) {
        used += n[k] > 0;
    }
    return used;
}

uint32_t iodfg_session_case_total(const struct iodfg_session *s, const uint8_t *case_on)
{
    uint32_t n = 0;
    for (uint32_t c = 0; c < s->ncases; c++) {
        n += !case_on || case_on[c];
    }
    if (s->job) {
        s->job->sum(s->job->ctx, &n, 1);
    }
    return n;
}

int iodfg_session_characterize(const struct iodfg_session *s, const struct iodfg_selection *sel,
                               const struct iodfg_bin_opts *o, int64_t alignment,
                               struct iodfg_characterization *r, struct iodfg_error *err)
{
    if (s->job) {
        return s->job->characterize(s->job->ctx, s, sel, o, alignment, r, err);
    }
    return iodfg_characterize(r, s->log, &s->map, sel, o, alignment, NULL, 2, NULL, err);
}
