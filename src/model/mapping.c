/* SPDX-License-Identifier: MIT */
/* Selections of events (the mapping itself is filled by the rules module). */
#include "config.h"

#include "iodfg/mapping.h"

#include <stddef.h>

void iodfg_selection_all(struct iodfg_selection *sel)
{
    sel->case_on = NULL;
    sel->from_ns = INT64_MIN;
    sel->to_ns = INT64_MAX;
    sel->per_pid = 0;
}
