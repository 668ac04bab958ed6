/* SPDX-License-Identifier: MIT */
/* HDF5 store: the checksums of format 4.1 (doc/format.md, "Checksums"), written and checked.
 * HDF5 checksums its metadata (object headers, attributes, B-trees) but not raw data: every
 * dataset gets an XXH3-64 `checksum` attribute of its values, and each case's rows of the
 * /events columns are summed in blocks into /event_checksums, so that a load checks what it
 * reads, however much of the log that is. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <hdf5.h>
#include <xxhash.h>
#if defined(__x86_64__) || defined(__i386__)
// libxxhash picks SSE2, AVX2 or AVX-512 at run time: twice the speed of the baseline build
#include <xxh_x86dispatch.h>
#endif

#include "iodfg/error.h"
#include "iodfg/eventlog.h"

#include "store_priv.h"
#include "store_reader.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define STORE_SUM_SWAP 1
#else
#define STORE_SUM_SWAP 0
#endif

/* Values are summed little-endian, as the file holds them: on a big-endian host a copy is
 * swapped first, a block at a time. */
static void update_le(XXH3_state_t *st, const void *p, size_t n, unsigned width)
{
    if (!STORE_SUM_SWAP || width == 1) {
        XXH3_64bits_update(st, p, n * width);
        return;
    }
    unsigned char tmp[4096];
    const unsigned char *s = p;
    size_t per = sizeof(tmp) / width;
    for (size_t i = 0; i < n; i += per) {
        size_t m = n - i < per ? n - i : per;
        for (size_t k = 0; k < m; k++) {
            for (unsigned b = 0; b < width; b++) {
                tmp[k * width + b] = s[(i + k) * width + width - 1 - b];
            }
        }
        XXH3_64bits_update(st, tmp, m * width);
    }
}

uint64_t store_sum_values(const void *p, uint64_t n, unsigned width)
{
    if (!STORE_SUM_SWAP || width == 1) {
        return XXH3_64bits(p, (size_t)n * width);
    }
    XXH3_state_t *st = XXH3_createState();
    if (!st) {
        return 0; // cannot happen in practice; a mismatch then reports damage, never hides it
    }
    XXH3_64bits_reset(st);
    update_le(st, p, (size_t)n, width);
    uint64_t h = XXH3_64bits_digest(st);
    XXH3_freeState(st);
    return h;
}

void store_sum_update(void *xxh3_state, const void *p, uint64_t n, unsigned width)
{
    update_le(xxh3_state, p, (size_t)n, width);
}

/* The members of a compound memory type of integers: where and how wide, in member order. */
struct members {
    int n;
    size_t off[32];
    unsigned width[32];
    size_t packed; // bytes of a row, packed
};

static int members_of(hid_t mtype, struct members *m)
{
    int n = H5Tget_nmembers(mtype);
    if (n <= 0 || n > 32) {
        return -1;
    }
    m->n = n;
    m->packed = 0;
    for (int i = 0; i < n; i++) {
        hid_t t = H5Tget_member_type(mtype, (unsigned)i);
        m->off[i] = H5Tget_member_offset(mtype, (unsigned)i);
        m->width[i] = t >= 0 ? (unsigned)H5Tget_size(t) : 0;
        if (t >= 0) {
            H5Tclose(t);
        }
        if (m->width[i] == 0 || m->width[i] > 8) {
            return -1;
        }
        m->packed += m->width[i];
    }
    return 0;
}

uint64_t store_sum_rows(hid_t mtype, const void *rows, uint64_t n, uint64_t first)
{
    struct members m;
    if (members_of(mtype, &m)) {
        return 0;
    }
    size_t esize = H5Tget_size(mtype);
    unsigned char row[32 * 8];
    uint64_t sum = 0;
    for (uint64_t i = 0; i < n; i++) {
        const unsigned char *r = (const unsigned char *)rows + i * esize;
        size_t o = 0;
        for (int k = 0; k < m.n; k++) {
            for (unsigned b = 0; b < m.width[k]; b++) {
                row[o + b] = r[m.off[k] + (STORE_SUM_SWAP ? m.width[k] - 1 - b : b)];
            }
            o += m.width[k];
        }
        sum += XXH3_64bits_withSeed(row, m.packed, first + i);
    }
    return sum;
}

uint64_t store_sum_of(hid_t mtype, const void *buf, uint64_t n)
{
    if (H5Tget_class(mtype) == H5T_COMPOUND) {
        return store_sum_rows(mtype, buf, n, 0);
    }
    return store_sum_values(buf, n, (unsigned)H5Tget_size(mtype));
}

/* ---- writing the block sums ------------------------------------------------------------------ */

struct store_block_hash {
    XXH3_state_t *st[STORE_C__N];
    uint32_t rows;                // of the case's current block
    struct store_block_sum *sums; // one row of /event_checksums per block
    uint64_t n, cap;
};

struct store_block_hash *store_block_hash_new(void)
{
    struct store_block_hash *h = calloc(1, sizeof(*h));
    for (int c = 0; h && c < STORE_C__N; c++) {
        if (!(h->st[c] = XXH3_createState())) {
            store_block_hash_free(h);
            return NULL;
        }
        XXH3_64bits_reset(h->st[c]);
    }
    return h;
}

void store_block_hash_free(struct store_block_hash *h)
{
    if (!h) {
        return;
    }
    for (int c = 0; c < STORE_C__N; c++) {
        XXH3_freeState(h->st[c]);
    }
    free(h->sums);
    free(h);
}

static int finish_block(struct store_block_hash *h)
{
    if (h->n == h->cap) {
        uint64_t cap = h->cap ? 2 * h->cap : 64;
        struct store_block_sum *s = realloc(h->sums, (size_t)cap * sizeof(*s));
        if (!s) {
            return -1;
        }
        h->sums = s;
        h->cap = cap;
    }
    for (int c = 0; c < STORE_C__N; c++) {
        h->sums[h->n].sum[c] = XXH3_64bits_digest(h->st[c]);
        XXH3_64bits_reset(h->st[c]);
    }
    h->n++;
    h->rows = 0;
    return 0;
}

int store_block_hash_add(struct store_block_hash *h, const void *const *vals, uint32_t k)
{
    for (uint32_t done = 0; done < k;) {
        uint32_t take = STORE_SUM_BLOCK_ROWS - h->rows;
        take = k - done < take ? k - done : take;
        for (int c = 0; c < STORE_C__N; c++) {
            const char *v = (const char *)vals[c] + (size_t)done * store_cols[c].size;
            update_le(h->st[c], v, take, store_cols[c].size);
        }
        h->rows += take;
        done += take;
        if (h->rows == STORE_SUM_BLOCK_ROWS && finish_block(h)) {
            return -1;
        }
    }
    return 0;
}

int store_block_hash_end_case(struct store_block_hash *h)
{
    return h->rows ? finish_block(h) : 0;
}

const struct store_block_sum *store_block_hash_sums(const struct store_block_hash *h, uint64_t *n)
{
    *n = h->n;
    return h->sums;
}

/* ---- checking what a load read --------------------------------------------------------------- */

uint64_t store_blocks_of(uint64_t rows)
{
    return (rows + STORE_SUM_BLOCK_ROWS - 1) / STORE_SUM_BLOCK_ROWS;
}

int store_load_block_sums(struct reader *r)
{
    uint64_t want = 0;
    for (uint32_t i = 0; i < r->ncases; i++) {
        r->plan[i].block = want;
        want += store_blocks_of(r->plan[i].rows);
    }
    htri_t ex = H5Lexists(r->file, STORE_BLOCK_SUMS, H5P_DEFAULT);
    if (ex <= 0) {
        return store_damaged(r, ex == 0 ? "table %s is missing" : "cannot find table %s",
                             STORE_BLOCK_SUMS);
    }
    uint64_t n = 0;
    void *buf = NULL;
    if (store_get_table(r, STORE_BLOCK_SUMS, store_block_sum_type, sizeof(struct store_block_sum),
                        want, &n, &buf)) {
        return -1;
    }
    if (n != want) {
        free(buf);
        return store_damaged(r, "%s has %llu rows, the cases' blocks %llu", STORE_BLOCK_SUMS,
                             (unsigned long long)n, (unsigned long long)want);
    }
    r->block_sums = buf;
    return 0;
}

int store_check_sums(const struct reader *r, const struct iodfg_columns *cols, uint32_t cs,
                     uint64_t first, uint64_t end, int *bad_col, uint64_t *bad_row)
{
    if (!r->block_sums) {
        return 0;
    }
    const struct case_plan *p = &r->plan[cs];
    uint64_t base = r->offsets[cs];
    for (uint64_t b = first / STORE_SUM_BLOCK_ROWS; b * STORE_SUM_BLOCK_ROWS < end; b++) {
        uint64_t a = b * STORE_SUM_BLOCK_ROWS;
        uint64_t z = a + STORE_SUM_BLOCK_ROWS < p->rows ? a + STORE_SUM_BLOCK_ROWS : p->rows;
        if (a < first || z > end) {
            continue; // not whole here: the item that holds the rest checks it
        }
        const struct store_block_sum *want = &r->block_sums[p->block + b];
        for (int c = 0; c < STORE_C__N; c++) {
            const char *col = store_log_column(cols, c);
            if (!col) {
                continue; // not loaded: nothing of it reaches the results
            }
            unsigned w = store_cols[c].size;
            if (store_sum_values(col + (base + a) * w, z - a, w) != want->sum[c]) {
                *bad_col = c;
                *bad_row = a;
                return -1;
            }
        }
    }
    return 0;
}
