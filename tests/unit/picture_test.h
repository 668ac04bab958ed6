/* SPDX-License-Identifier: MIT */
/* Test support for the pictures' suites: the real IOR runs of tests/data/traces/ior-real.tar.xz
 * (4 ranks each; cids posixssf, posixfpp, mpiiossf, mpiiofpp; IOR -b 64k -t 16k -s 4 -w -r -C
 * -e) unpacked, converted by the iodfg binary, loaded and analysed; and a JSON check. */
#ifndef IODFG_TESTS_PICTURE_TEST_H
#define IODFG_TESTS_PICTURE_TEST_H

#include <stddef.h>

#include "iodfg/mapping.h"
#include "iodfg/picture.h"

struct iodfg_eventlog;
struct iodfg_session;

/* A real IOR run open for a test. */
struct pic_run {
    char *dir;                     /* the unpacked archive and the log */
    const char *h5;                /* the log's path (in dir) */
    struct iodfg_eventlog *log;    /* every column */
    struct iodfg_session *s;       /* rebuilt, default rules */
    struct iodfg_selection sel;    /* in's selection */
    struct iodfg_picture_input in; /* over s, no focus */
};

/* Unpack the archive into a fresh directory, convert run cids (several: separated by spaces)
 * into one log with $IODFG_BIN, load it and open a session with filters (one per line; NULL:
 * none). Aborts the test on failure. */
void pic_run_open(struct pic_run *r, const char *cids, const char *filters);
/* Rebuild the session (after groups changed) and take the picture input anew. */
void pic_run_rebuild(struct pic_run *r);
void pic_run_close(struct pic_run *r);

/* Run cmd (a shell command) and return its standard output (malloc'd; aborts on failure). */
char *pic_run_command(const char *cmd);
/* The len bytes at data parse as JSON (python3; a note and no check without it). */
void pic_json_ok(const char *data, size_t len);

#endif
