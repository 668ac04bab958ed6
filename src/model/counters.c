/* SPDX-License-Identifier: MIT */
/* Per-server I/O counter samples: the plain data the characterisation reads. */
#include "config.h"

#include "iodfg/counters.h"

#include <stdlib.h>
#include <string.h>

static const char *const ctr_names[IODFG_CTR__N] = {
    "bytes_read", "bytes_written", "read_ops", "write_ops", "opens", "closes",
};

const char *iodfg_counter_name(enum iodfg_counter c)
{
    return (unsigned)c < IODFG_CTR__N ? ctr_names[c] : "?";
}

void iodfg_counters_init(struct iodfg_counters *c)
{
    memset(c, 0, sizeof(*c));
}

void iodfg_counters_fini(struct iodfg_counters *c)
{
    for (uint32_t s = 0; c->server && s < c->nservers; s++) {
        free(c->server[s]);
    }
    free(c->server);
    free(c->first);
    free(c->t_s);
    for (int k = 0; k < IODFG_CTR__N; k++) {
        free(c->v[k]);
    }
    memset(c, 0, sizeof(*c));
}
