/* SPDX-License-Identifier: MIT */
/* iodfg-mpi batch: one line of a batch file split into the command's words and its output
 * redirections, as written (quotes kept), before the shell-like expansion (wordexp) of each.
 * No MPI here: the unit tests link it alone. */
#ifndef IODFG_MPI_BATCH_WORDS_H
#define IODFG_MPI_BATCH_WORDS_H

#include <stddef.h>

struct iodfg_error;

struct mpi_batch_cmd {
    char *words; /* the command and its arguments, blank-separated, quotes as written */
    char *out;   /* the word after `>`, or NULL */
    char *err;   /* the word after `2>`, or NULL */
};

/* Split line[0..len) (no newline), line lineno of the batch file where. 1 with *c filled (free
 * with mpi_batch_cmd_fini), 0 for a blank line or a comment (# to the end of the line), or -1
 * with err (IODFG_E_PARSE at where:lineno:column; IODFG_E_NOMEM). What the shell would run but a
 * batch refuses is an error: pipes, lists, input redirection, command substitution, appending, and
 * 2>&1. */
int mpi_batch_split(const char *line, size_t len, const char *where, unsigned long lineno,
                    struct mpi_batch_cmd *c, struct iodfg_error *err);
void mpi_batch_cmd_fini(struct mpi_batch_cmd *c);

#endif
