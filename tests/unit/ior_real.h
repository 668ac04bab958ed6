/* SPDX-License-Identifier: MIT */
/* Test support for the pictures' suites: the real IOR runs of tests/data/traces/ior-real.tar.xz
 * (4 ranks each; cids posixssf, posixfpp, mpiiossf, mpiiofpp; IOR -b 64k -t 16k -s 4 -w -r -C
 * -e) unpacked, converted by the iodfg binary and loaded, and a session over them. */
#ifndef IODFG_TESTS_IOR_REAL_H
#define IODFG_TESTS_IOR_REAL_H

struct iodfg_eventlog;
struct iodfg_session;

/* Unpack the archive into a fresh directory, convert run cid (several: separated by spaces) there
 * with $IODFG_BIN into one log and load it
 * with every column (aborts the test on failure). *dir_out: the directory (free it after
 * testutil_rmtree); *h5_out: the log's path inside it (static buffer). */
struct iodfg_eventlog *ior_real_load(const char *cid, char **dir_out, const char **h5_out);
/* A rebuilt session over log with the default rules and the filters given one per line
 * (NULL: none). */
struct iodfg_session *ior_real_session(const struct iodfg_eventlog *log, const char *filters);
/* Run cmd (a shell command) and return its standard output (malloc'd; aborts on failure). */
char *ior_real_run(const char *cmd);

#endif
