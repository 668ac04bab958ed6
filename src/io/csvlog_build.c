/* SPDX-License-Identifier: MIT */
/* CSV event logs: the rows read, grouped by case (in order of first appearance), pushed into
 * the event log; the log sorts each case by start, ties in row order. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"
#include "iodfg/strace.h"
#include "iodfg/strpool.h"

#include "csvlog_priv.h"

static int push_case(struct csv_reader *rd, const struct csv_case *c, uint32_t source,
                     const uint32_t *order, uint64_t lo, uint64_t hi)
{
    struct iodfg_case_info ci;
    memset(&ci, 0, sizeof(ci));
    ci.name = c->name;
    ci.cid = c->cid;
    ci.host = c->host;
    ci.rid = c->rid;
    ci.source = source;
    ci.naming = rd->at[IODFG_CSV_CID] >= 0 ? IODFG_NAMING_PATTERN : IODFG_NAMING_FILENAME;
    ci.clock = c->clock;
    ci.lines = c->rows;
    ci.counts[IODFG_COUNT_EVENTS] = c->rows;
    if (iodfg_eventlog_begin_case(rd->log, &ci, rd->err)) {
        return -1;
    }
    for (uint64_t i = lo; i < hi; i++) {
        const struct csv_row *row = &rd->rows[order[i]];
        struct iodfg_event ev = {.start_ns = row->start_ns,
                                 .dur_ns = row->dur_ns,
                                 .size = row->size,
                                 .offset = row->offset,
                                 .req = row->req,
                                 .err = row->err,
                                 .pid = row->pid,
                                 .fd = row->fd,
                                 .handle = IODFG_NO_HANDLE};
        if (iodfg_eventlog_key(rd->log, row->call, row->path, &ev.key)) {
            return iodfg_error_set(rd->err, IODFG_E_NOMEM, NULL);
        }
        if (iodfg_eventlog_push(rd->log, &ev, row->line, rd->err)) {
            return -1;
        }
    }
    return iodfg_eventlog_end_case(rd->log, rd->err);
}

int csv_build(struct csv_reader *rd)
{
    struct iodfg_strace_result *res = rd->res;
    res->counts[IODFG_COUNT_EVENTS] = rd->nrows;
    res->clock = rd->ncases ? rd->cases[0].clock : IODFG_CLOCK_NONE;
    uint32_t source;
    if (iodfg_strpool_intern(iodfg_eventlog_pool(rd->log), rd->path, strlen(rd->path), &source)) {
        return iodfg_error_set(rd->err, IODFG_E_NOMEM, NULL);
    }
    // counting sort of the rows by case, stable: each case's rows in file order
    uint64_t *first = calloc((size_t)rd->ncases + 1, sizeof(*first));
    uint32_t *order = malloc((rd->nrows ? rd->nrows : 1) * sizeof(*order));
    if (!first || !order || rd->nrows > UINT32_MAX ||
        iodfg_eventlog_reserve(rd->log, rd->nrows, rd->err)) {
        free(first);
        free(order);
        return iodfg_error_set(rd->err, IODFG_E_NOMEM, NULL);
    }
    for (uint32_t c = 0; c < rd->ncases; c++) {
        first[c + 1] = first[c] + rd->cases[c].rows;
    }
    uint64_t *next = first; // each case's next slot (first is not needed after this)
    for (size_t i = 0; i < rd->nrows; i++) {
        order[next[rd->rows[i].case_ix]++] = (uint32_t)i;
    }
    int rc = 0;
    uint64_t lo = 0;
    for (uint32_t c = 0; c < rd->ncases && rc == 0; c++) {
        uint64_t hi = lo + rd->cases[c].rows;
        rc = push_case(rd, &rd->cases[c], source, order, lo, hi);
        lo = hi;
    }
    free(first);
    free(order);
    return rc;
}

void csv_reader_fini(struct csv_reader *rd)
{
    iodfg_buf_fini(&rd->rec.text);
    iodfg_buf_fini(&rd->scratch);
    free(rd->rec.f);
    free(rd->rows);
    free(rd->cases);
    free(rd->case_of_str);
}
