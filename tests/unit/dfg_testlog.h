/* SPDX-License-Identifier: MIT */
/* Test support for the DFG suites: logs from strace text, the paper's f̂ mapping, dot checks. */
#ifndef IODFG_TESTS_DFG_TESTLOG_H
#define IODFG_TESTS_DFG_TESTLOG_H

#include <stddef.h>
#include <stdint.h>

#include "iodfg/mapping.h"

struct iodfg_eventlog;

/* Parse text as one case named name into log (aborts the test on failure). */
void tlog_add_case(struct iodfg_eventlog *log, const char *name, const char *text);
/* The same with a cid (NULL: none). */
void tlog_add_case_cid(struct iodfg_eventlog *log, const char *name, const char *cid,
                       const char *text);
/* The paper's f̂: call + ':' + path truncated to its top two directory levels; non-files by
 * kind ("write:pipe"); a call without a path maps to the call name. Free with tlog_map_free. */
void tlog_map_fhat(struct iodfg_mapping *map, const struct iodfg_eventlog *log);
void tlog_map_free(struct iodfg_mapping *map);
/* Activity id of name in map, or IODFG_NO_ACTIVITY. */
uint32_t tlog_act(const struct iodfg_mapping *map, const char *name);
/* Intern name as a (possibly new) activity of map; returns its id. */
uint32_t tlog_new_act(struct iodfg_mapping *map, const char *name);
/* Run `dot -Tsvg` on text; 0 when it succeeds, 1 when it fails, 77 when dot is missing. */
int tlog_dot_ok(const char *text, size_t len);
/* The two case groups of the paper's worked example (ls = a*, ls -l = b*), three cases each. */
void tlog_paper_log(struct iodfg_eventlog *log);

#endif
