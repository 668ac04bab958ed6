/* SPDX-License-Identifier: MIT */
/* HDF5 store written by every process at once (iodfg-mpi), strace -k stacks (4.2): the frame and
 * stack tables (alike on every process: process 0 writes them) and each process's slab of
 * event_stack, whose checksum (the XXH3-64 of the whole column, as a serial writer sums it) is
 * summed through the processes in order. The datasets are contiguous: parallel HDF5 writes
 * compressed chunks only collectively with every process's data, and the values are what a
 * serial writer writes (doc/format.md compares both with h5diff). Compiled only against the MPI
 * build of HDF5. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <hdf5.h>
#define XXH_STATIC_LINKING_ONLY // the state's size: it travels from process to process
#include <xxhash.h>

#include "iodfg/stacks.h"

#include "store_priv.h"
#include "store_stacks.h"

struct par_put {
    hid_t dxpl;
    int rank;
};

/* A table alike on every process: created by all, written by process 0 in a collective write. */
static int par_put(void *ctx, hid_t g, const char *name, hid_t ft, hid_t mt, const void *data,
                   uint64_t n)
{
    const struct par_put *pp = ctx;
    hsize_t dims[1] = {n};
    hid_t sp = H5Screate_simple(1, dims, NULL);
    hid_t d = sp < 0 ? -1 : H5Dcreate2(g, name, ft, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int rc = d < 0 || store_par_slab(pp->dxpl, d, mt, 0, pp->rank == 0 ? n : 0, data) ||
             store_stacks_checksum(d, store_sum_of(mt, data, n));
    if (d >= 0) {
        H5Dclose(d);
    }
    if (sp >= 0) {
        H5Sclose(sp);
    }
    return rc ? -1 : 0;
}

/* The XXH3-64 of every process's n ids in process order: each adds its own to the state process
 * p - 1 sent and sends it on; the last one's digest goes to all. 0 or -1 (on every process). */
static int chain_sum(MPI_Comm comm, const uint32_t *ids, uint64_t n, uint64_t *sum)
{
    int rank, size, ok = 1;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    XXH3_state_t *st = XXH3_createState();
    if (st) {
        XXH3_64bits_reset(st);
    } else {
        ok = 0; // still passes the state on: the others wait for it
    }
    XXH3_state_t dummy;
    XXH3_state_t *io = st ? st : &dummy;
    if (!st) {
        XXH3_64bits_reset(io);
    }
    if (rank > 0) {
        // the state points at the default secret in the library's memory, which is elsewhere in
        // each process: it keeps this process's pointer
        const unsigned char *secret = io->extSecret;
        MPI_Recv(io, (int)sizeof(*io), MPI_BYTE, rank - 1, 7, comm, MPI_STATUS_IGNORE);
        io->extSecret = secret;
    }
    if (st && n) {
        store_sum_update(st, ids, n, 4);
    }
    if (rank + 1 < size) {
        MPI_Send(io, (int)sizeof(*io), MPI_BYTE, rank + 1, 7, comm);
    }
    *sum = st && rank == size - 1 ? XXH3_64bits_digest(st) : 0;
    XXH3_freeState(st);
    MPI_Bcast(sum, 1, MPI_UINT64_T, size - 1, comm);
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, comm);
    return ok ? 0 : -1;
}

/* event_stack: each process's rows in the same number of collective writes (pieces of at most
 * 2^26 rows, which MPI-IO counts in an int). */
static int put_events(MPI_Comm comm, hid_t g, hid_t dxpl, const uint32_t *ids, uint64_t first,
                      uint64_t n, uint64_t total, uint64_t max_n)
{
    const uint64_t piece = (uint64_t)1 << 26;
    hsize_t dims[1] = {total};
    hid_t sp = H5Screate_simple(1, dims, NULL);
    hid_t d = sp < 0 ? -1
                     : H5Dcreate2(g, STORE_EVENT_STACK, H5T_STD_U32LE, sp, H5P_DEFAULT, H5P_DEFAULT,
                                  H5P_DEFAULT);
    int rc = d < 0 ? -1 : 0;
    for (uint64_t r = 0; r < (max_n + piece - 1) / piece; r++) {
        uint64_t at = r * piece < n ? r * piece : n;
        uint64_t k = n - at < piece ? n - at : piece;
        // a failed process still takes part in the collective writes, with nothing
        if (store_par_slab(dxpl, d, H5T_NATIVE_UINT32, first + at, rc ? 0 : k, ids + at)) {
            rc = -1;
        }
    }
    uint64_t sum;
    if (chain_sum(comm, ids, n, &sum) || d < 0 || store_stacks_checksum(d, sum)) {
        rc = -1;
    }
    if (d >= 0 && H5Dclose(d) < 0) {
        rc = -1;
    }
    if (sp >= 0) {
        H5Sclose(sp);
    }
    return rc;
}

int store_par_stacks_write(hid_t file, const void *mpi_comm, hid_t dxpl,
                           const struct iodfg_stacks *st, const uint32_t *ids, uint64_t first,
                           uint64_t n, uint64_t total, uint64_t max_n)
{
    MPI_Comm comm = *(const MPI_Comm *)mpi_comm;
    struct par_put pp = {dxpl, 0};
    MPI_Comm_rank(comm, &pp.rank);
    hid_t g = H5Gcreate2(file, STORE_STACKS, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    int rc = g < 0 || store_stacks_write_tables(g, st, par_put, &pp) ? -1 : 0;
    // every process writes its slab, failed or not, so that none waits for another
    if (put_events(comm, g, dxpl, ids, first, n, total, max_n)) {
        rc = -1;
    }
    if (g >= 0) {
        H5Gclose(g);
    }
    MPI_Allreduce(MPI_IN_PLACE, &rc, 1, MPI_INT, MPI_MIN, comm);
    return rc;
}
