/* SPDX-License-Identifier: MIT */
/* All characterisation metrics of a selection, the stair-case sweep on a second thread. */
#include "config.h"

#include "iodfg/characterize.h"

#include <string.h>

#include "iodfg/error.h"
#include "iodfg/forkjoin.h"
#include "iodfg/timeline.h"

void iodfg_characterization_init(struct iodfg_characterization *ch)
{
    iodfg_binned_init(&ch->bins);
    iodfg_bandwidth_init(&ch->bw);
    iodfg_serial_init(&ch->serial);
    iodfg_access_init(&ch->access);
}

void iodfg_characterization_fini(struct iodfg_characterization *ch)
{
    iodfg_binned_fini(&ch->bins);
    iodfg_bandwidth_fini(&ch->bw);
    iodfg_serial_fini(&ch->serial);
    iodfg_access_fini(&ch->access);
}

struct serial_job {
    struct iodfg_serial *out;
    const struct iodfg_eventlog *log;
    const struct iodfg_mapping *map;
    const struct iodfg_selection *sel;
    const struct iodfg_timeline *tl;
    const struct iodfg_cancel *cancel;
    struct iodfg_error err;
    int rc;
};

static void *serial_run(void *arg)
{
    struct serial_job *j = arg;
    j->rc = iodfg_serial_build(j->out, j->log, j->map, j->sel, j->tl, j->cancel, &j->err);
    return NULL;
}

int iodfg_characterize(struct iodfg_characterization *ch, const struct iodfg_eventlog *log,
                       const struct iodfg_mapping *map, const struct iodfg_selection *sel,
                       const struct iodfg_bin_opts *o, int64_t alignment,
                       const struct iodfg_timeline *tl, int nthreads,
                       const struct iodfg_cancel *cancel, struct iodfg_error *err)
{
    iodfg_characterization_fini(ch);
    struct serial_job job = {&ch->serial, log, map, sel, tl, cancel, {0}, 0};
    iodfg_error_clear(&job.err);
    struct iodfg_fork fork;
    iodfg_fork_start(&fork, nthreads > 1, IODFG_FORK_TASK, serial_run, &job);
    struct iodfg_error mine;
    iodfg_error_clear(&mine);
    int rc = iodfg_binned_build(&ch->bins, log, map, sel, o, cancel, &mine) ||
             iodfg_bandwidth_build(&ch->bw, log, map, sel, &mine) ||
             iodfg_access_build(&ch->access, log, map, sel, alignment, cancel, &mine);
    iodfg_fork_join(&fork);
    if (rc || job.rc) {
        const struct iodfg_error *e = rc ? &mine : &job.err;
        if (err && err->code == IODFG_OK) {
            *err = *e;
        }
        iodfg_characterization_fini(ch);
        return -1;
    }
    return 0;
}
