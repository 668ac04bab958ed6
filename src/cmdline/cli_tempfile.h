/* SPDX-License-Identifier: MIT */
/* A temp file removed when a signal ends the process while it is written (convert's log, -o
 * FILE of a streamed output). */
#ifndef IODFG_CLI_TEMPFILE_H
#define IODFG_CLI_TEMPFILE_H

/* While a temp file is being written: remove it if SIGINT, SIGTERM or SIGHUP ends the process
 * (the signal then takes its default action). One guarded file at a time. cli_temp_hold, before
 * the file is created, holds those signals until cli_temp_guard (or cli_temp_forget, when the
 * creation failed): one that comes between the file's creation and its guard still removes it
 * (under sh, a background job starts with SIGINT ignored, and would lose it). */
void cli_temp_hold(void);
void cli_temp_guard(const char *path);
void cli_temp_forget(void);

#endif
