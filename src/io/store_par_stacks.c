/* SPDX-License-Identifier: MIT */
/* The MPI job's store (iodfg-mpi), strace -k stacks (4.2), as process 0 writes them: the frame
 * and stack tables as the serial writer writes them, and event_stack, whose rows come from every
 * process in turn, contiguous (written a run at a time) with the XXH3-64 of the whole column as
 * its checksum, summed as the runs arrive (the serial writer's sum of the same values). */
#include "config.h"

#include <stdlib.h>

#include <hdf5.h>
#include <xxhash.h>

#include "iodfg/stacks.h"

#include "store_priv.h"
#include "store_stacks.h"

int store_par_stacks_open(struct store_par_stacks *s, hid_t file, const struct iodfg_stacks *st,
                          uint64_t total)
{
    hsize_t dims[1] = {total};
    s->d = -1;
    s->xxh = XXH3_createState();
    s->g = H5Gcreate2(file, STORE_STACKS, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    if (!s->xxh || s->g < 0 || XXH3_64bits_reset(s->xxh) != XXH_OK ||
        store_stacks_write_tables(s->g, st, store_stacks_put, NULL)) {
        return -1;
    }
    hid_t sp = H5Screate_simple(1, dims, NULL);
    s->d = sp < 0 ? -1
                  : H5Dcreate2(s->g, STORE_EVENT_STACK, H5T_STD_U32LE, sp, H5P_DEFAULT, H5P_DEFAULT,
                               H5P_DEFAULT);
    if (sp >= 0) {
        H5Sclose(sp);
    }
    return s->d < 0 ? -1 : 0;
}

int store_par_stacks_put(struct store_par_stacks *s, const uint32_t *ids, uint64_t first,
                         uint64_t n)
{
    if (n == 0) {
        return 0;
    }
    store_sum_update(s->xxh, ids, n, 4);
    return store_par_slab(s->d, H5T_NATIVE_UINT32, first, n, ids);
}

int store_par_stacks_close(struct store_par_stacks *s, int rc)
{
    if (rc == 0 && (s->d < 0 || store_stacks_checksum(s->d, XXH3_64bits_digest(s->xxh)))) {
        rc = -1;
    }
    if (s->d >= 0 && H5Dclose(s->d) < 0) {
        rc = -1;
    }
    if (s->g >= 0 && H5Gclose(s->g) < 0) {
        rc = -1;
    }
    XXH3_freeState(s->xxh);
    s->d = s->g = -1;
    s->xxh = NULL;
    return rc;
}
