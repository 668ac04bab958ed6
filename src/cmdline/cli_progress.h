/* SPDX-License-Identifier: MIT */
/* The progress bar of long reads and writes, on standard error when it is a terminal. */
#ifndef IODFG_CLI_PROGRESS_H
#define IODFG_CLI_PROGRESS_H

#include <stdint.h>

/* Bytes done of total (an iodfg_ingest_progress_fn); redrawn at most five times a second. */
void cli_progress(void *ctx, uint64_t done, uint64_t total);
/* Clear the bar (when one was drawn). */
void cli_progress_end(void);

#endif
