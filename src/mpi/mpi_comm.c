/* SPDX-License-Identifier: MIT */
/* iodfg-mpi: agreeing on success and moving bytes between the job's processes. */
#include "config.h"

#include "mpi_comm.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iodfg/error.h"
#include "iodfg/store_par.h"

/* The lowest of every process's mine, asleep while others are not there yet: a process that
 * finishes its part first (its parse, say) would otherwise poll at full speed in MPI_Allreduce,
 * 0.1-0.2 CPU-s of a 2-process convert of 3.3 M lines, on the core the others need. */
static int lowest(const struct mpi_job *job, int mine)
{
    int first = mine;
    MPI_Request req;
    if (MPI_Iallreduce(&mine, &first, 1, MPI_INT, MPI_MIN, job->comm, &req) != MPI_SUCCESS) {
        MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, job->comm);
        return first;
    }
    iodfg_store_par_wait(&req);
    return first;
}

int mpi_agree(const struct mpi_job *job, int rc, struct iodfg_error *err)
{
    int first = lowest(job, rc ? job->rank : job->size);
    if (first == job->size) {
        return 0;
    }
    struct iodfg_error e;
    if (job->rank == first) {
        e = *err;
        if (e.code == IODFG_OK) { // a failure that forgot to say why
            iodfg_error_set(&e, IODFG_E_IO, "process %d failed", first);
        }
    }
    MPI_Bcast(&e, (int)sizeof(e), MPI_BYTE, first, job->comm);
    *err = e;
    return -1;
}

int mpi_capture_stderr(void)
{
    FILE *f = tmpfile();
    return f && dup2(fileno(f), STDERR_FILENO) >= 0 ? 0 : -1;
}

void mpi_reset_stderr(const struct mpi_job *job)
{
    if (job->rank != 0) {
        fflush(stderr);
        if (ftruncate(STDERR_FILENO, 0) == 0) {
            lseek(STDERR_FILENO, 0, SEEK_SET);
        }
    }
}

/* The last size - 1 bytes written to the captured standard error, as a string; the capture is
 * emptied. */
static int take_stderr(char *buf, int size)
{
    fflush(stderr);
    off_t end = lseek(STDERR_FILENO, 0, SEEK_END);
    off_t from = end > size - 1 ? end - (size - 1) : 0;
    ssize_t got = end > 0 ? pread(STDERR_FILENO, buf, (size_t)(end - from), from) : 0;
    buf[got > 0 ? got : 0] = '\0';
    if (ftruncate(STDERR_FILENO, 0) == 0) {
        lseek(STDERR_FILENO, 0, SEEK_SET);
    }
    return got > 0 ? (int)got + 1 : 1;
}

int mpi_agree_status(const struct mpi_job *job, int rc)
{
    int first = lowest(job, rc ? job->rank : job->size);
    if (first == job->size) {
        return 0;
    }
    MPI_Bcast(&rc, 1, MPI_INT, first, job->comm);
    if (first != 0) {
        char text[4096];
        int len = job->rank == first ? take_stderr(text, (int)sizeof(text)) : 0;
        if (job->rank == first) {
            MPI_Send(text, len, MPI_CHAR, 0, 3, job->comm);
        } else if (job->rank == 0) {
            MPI_Status st;
            MPI_Recv(text, (int)sizeof(text), MPI_CHAR, first, 3, job->comm, &st);
            text[sizeof(text) - 1] = '\0';
            fprintf(stderr, "%s", text);
        }
    }
    return rc;
}

int mpi_bcast_bytes(const struct mpi_job *job, char **data, uint64_t *len, struct iodfg_error *err)
{
    uint64_t n = job->rank == 0 ? *len : 0;
    MPI_Bcast(&n, 1, MPI_UINT64_T, 0, job->comm);
    if (n > INT_MAX) {
        return iodfg_error_set(err, IODFG_E_LIMIT, "%llu bytes are too many for one broadcast",
                               (unsigned long long)n);
    }
    char *buf = job->rank == 0 ? *data : malloc(n ? n : 1);
    int rc = mpi_agree(job, buf ? 0 : iodfg_error_set(err, IODFG_E_NOMEM, NULL), err);
    if (rc) {
        if (job->rank != 0) {
            free(buf);
        }
        return -1;
    }
    MPI_Bcast(buf, (int)n, MPI_BYTE, 0, job->comm);
    *data = buf;
    *len = n;
    return 0;
}

/* everyone: every process gets the bytes; else process 0 only (the others an empty buffer). */
static int gather_bytes(const struct mpi_job *job, const void *mine, uint64_t len, char **all,
                        uint64_t **off, int everyone, struct iodfg_error *err)
{
    uint64_t *lens = calloc((size_t)job->size, sizeof(*lens));
    uint64_t *o = calloc((size_t)job->size + 1, sizeof(*o));
    int *counts = calloc((size_t)job->size, sizeof(*counts));
    int *displs = calloc((size_t)job->size, sizeof(*displs));
    int rc = lens && o && counts && displs ? 0 : iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    if (mpi_agree(job, rc, err) == 0) {
        MPI_Allgather(&len, 1, MPI_UINT64_T, lens, 1, MPI_UINT64_T, job->comm);
        for (int p = 0; p < job->size; p++) {
            o[p + 1] = o[p] + lens[p];
            counts[p] = (int)lens[p];
            displs[p] = (int)o[p];
        }
        if (o[job->size] > INT_MAX) {
            rc = iodfg_error_set(err, IODFG_E_LIMIT, "%llu bytes of tables are too many to share",
                                 (unsigned long long)o[job->size]);
        }
        int here = everyone || job->rank == 0;
        char *buf = rc ? NULL : malloc(o[job->size] && here ? o[job->size] : 1);
        if (rc == 0 && !buf) {
            rc = iodfg_error_set(err, IODFG_E_NOMEM, NULL);
        }
        if (mpi_agree(job, rc, err) == 0) {
            if (everyone) {
                MPI_Allgatherv(mine, (int)len, MPI_BYTE, buf, counts, displs, MPI_BYTE, job->comm);
            } else {
                MPI_Gatherv(mine, (int)len, MPI_BYTE, buf, counts, displs, MPI_BYTE, 0, job->comm);
            }
            *all = buf;
            *off = o;
            o = NULL;
        } else {
            free(buf);
            rc = -1;
        }
    } else {
        rc = -1;
    }
    free(lens);
    free(o);
    free(counts);
    free(displs);
    return rc;
}

int mpi_allgather_bytes(const struct mpi_job *job, const void *mine, uint64_t len, char **all,
                        uint64_t **off, struct iodfg_error *err)
{
    return gather_bytes(job, mine, len, all, off, 1, err);
}

int mpi_gather_bytes(const struct mpi_job *job, const void *mine, uint64_t len, char **all,
                     uint64_t **off, struct iodfg_error *err)
{
    return gather_bytes(job, mine, len, all, off, 0, err);
}

void mpi_sum_u64(const struct mpi_job *job, uint64_t *v, int n)
{
    MPI_Allreduce(MPI_IN_PLACE, v, n, MPI_UINT64_T, MPI_SUM, job->comm);
}
