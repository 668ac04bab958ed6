/* SPDX-License-Identifier: MIT */
/* A session that analyses one part of an event log while other processes analyse the other parts
 * (an iodfg-mpi job): which cases the part holds, and the collective reductions that make its
 * results the whole log's, exactly (partial.h; doc/mpi.md says why each step is exact). The
 * engine has no transport: the front-end that runs the job implements the reductions (src/mpi).
 * Once a job is set, these session operations are collective (every part calls them, in the same
 * order) and agree: each returns the same status on every part, with the first failing part's
 * error: iodfg_session_prepare and _rebuild (which then merges the parts' results into the
 * writing part's session), _set_groups (the groups may share no case of any part),
 * _clocks, _case_total and _characterize (session.h). */
#ifndef IODFG_SESSION_JOB_H
#define IODFG_SESSION_JOB_H

#include <stddef.h>
#include <stdint.h>

struct iodfg_bin_opts;
struct iodfg_characterization;
struct iodfg_error;
struct iodfg_groups_overlap;
struct iodfg_selection;
struct iodfg_session;

struct iodfg_job {
    /* The part: the index in the whole log of its first case (cases without a name are named
     * by it). */
    uint32_t first_case;
    /* 1: merge finds the maximum concurrency and the percentiles over the whole log, so the
     * part's own builds skip them (iodfg_session_set_job_part). */
    int merge_sweeps;
    /* rc (0 or -1) of every part: 0 on every part when all passed 0, else -1 on every part with
     * err set to the error of the first part that failed. */
    int (*agree)(void *ctx, int rc, struct iodfg_error *err);
    /* n counts summed over the parts, in place on every part. */
    void (*sum)(void *ctx, uint32_t *v, size_t n);
    /* After every part rebuilt its session: the whole log's DFG and statistics (and the groups')
     * into the session of the part that writes the output (iodfg_session_adopt). 0, or -1 with
     * err on every part. */
    int (*merge)(void *ctx, struct iodfg_session *s, struct iodfg_error *err);
    /* Every part's overlap of groups G and R (ov holds this part's), added up in part order
     * into ov on every part (iodfg_filter_overlap_add). 0, or -1 with err on every part. */
    int (*overlaps)(void *ctx, struct iodfg_groups_overlap *ov, struct iodfg_error *err);
    /* The characterisation of sel over every part into r on the part that writes (the other
     * parts' r are not the whole log's). 0, or -1 with err on every part. */
    int (*characterize)(void *ctx, const struct iodfg_session *s, const struct iodfg_selection *sel,
                        const struct iodfg_bin_opts *o, int64_t alignment,
                        struct iodfg_characterization *r, struct iodfg_error *err);
    void *ctx;
};

/* Make s one part of job (borrowed: it must outlive the session), before the first rebuild. */
void iodfg_session_set_job(struct iodfg_session *s, const struct iodfg_job *job);
/* The job of s, or NULL when s analyses a whole log. */
const struct iodfg_job *iodfg_session_job(const struct iodfg_session *s);

#endif
