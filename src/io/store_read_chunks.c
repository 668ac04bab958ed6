/* SPDX-License-Identifier: MIT */
/* HDF5 store, reading side: the whole chunks of an /events column that we read with pread
 * instead of through HDF5. A 4.0 chunk is scale-offset coded (its header read here once, then
 * any run of rows decoded where it lies); a 3.0 chunk, or one h5repack left unfiltered, is
 * stored as it is. Chunks in any other state (deflated, other filters) go through HDF5. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include <hdf5.h>

#include "iodfg/error.h"

#include "store_codec.h"
#include "store_priv.h"
#include "store_reader.h"

/* HDF5's parameters of the scale-offset filter: 20 values, the fill value from the ninth. */
enum { SO_NPARMS = 20, SO_TYPE = 0, SO_NELMTS = 2, SO_CLASS = 3, SO_SIZE = 4, SO_SIGN = 5,
       SO_ORDER = 6, SO_FILAVAIL = 7, SO_FILVAL = 8 };
#define SO_TYPE_INT 2u

/* The scale-offset parameters of a column of esz-byte values chunked in cr rows, from the
 * filter's cd values. 0, or 1 when they describe something we do not decode (HDF5 will). */
static int so_from_cd(const unsigned *cd, size_t ncd, uint64_t cr, size_t esz,
                      struct store_so_params *p)
{
    if (ncd != SO_NPARMS || cd[SO_TYPE] != SO_TYPE_INT || cd[SO_CLASS] != 0 ||
        cd[SO_SIZE] != esz || cd[SO_NELMTS] != cr || cd[SO_ORDER] != 0 || cd[SO_SIGN] > 1 ||
        cd[SO_FILAVAIL] > 1) {
        return 1;
    }
    p->size = (unsigned)esz;
    p->is_signed = cd[SO_SIGN] == 1;
    p->has_fill = cd[SO_FILAVAIL] == 1;
    p->fill = (uint32_t)cd[SO_FILVAL];
    if (esz == 8) {
        p->fill |= (uint64_t)(uint32_t)cd[SO_FILVAL + 1] << 32;
    }
    p->nelmts = (uint32_t)cr;
    return 0;
}

/* Which of column c's filters is scale-offset: 0 (the first), -1 none; 1 when a filter we do
 * not know, or scale-offset in another place, means HDF5 must read every chunk. */
static int filters_of(struct store_event_cols *ev, int c, uint64_t cr, int *so_index, int *n)
{
    hid_t dcpl = H5Dget_create_plist(ev->ids[c]);
    *n = dcpl >= 0 ? H5Pget_nfilters(dcpl) : -1;
    *so_index = -1;
    int rc = *n < 0 || *n >= 32;
    for (int i = 0; rc == 0 && i < *n; i++) {
        unsigned flags = 0, cd[SO_NPARMS + 1];
        size_t ncd = SO_NPARMS + 1;
        H5Z_filter_t id = H5Pget_filter2(dcpl, (unsigned)i, &flags, &ncd, cd, 0, NULL, NULL);
        if (id == H5Z_FILTER_SCALEOFFSET && i == 0) {
            *so_index = 0;
            rc = so_from_cd(cd, ncd, cr, store_cols[c].size, &ev->so[c]);
        } else if (id != H5Z_FILTER_DEFLATE) {
            rc = 1;
        }
    }
    if (dcpl >= 0) {
        H5Pclose(dcpl);
    }
    return rc;
}

/* Chunk k of column c: where, how big, and (coded) its header. 0, 1 = HDF5 must read it,
 * -1 = damaged (err set). */
static int locate_one(struct reader *r, struct store_event_cols *ev, int c, uint64_t cr, int so,
                      unsigned all, uint64_t k, struct store_chunk *at)
{
    hsize_t off[1] = {k * cr};
    unsigned mask = 0;
    haddr_t a = HADDR_UNDEF;
    hsize_t size = 0;
    if (H5Dget_chunk_info_by_coord(ev->ids[c], off, &mask, &a, &size) < 0 || a == HADDR_UNDEF ||
        a > r->vfd_size || size > r->vfd_size - a) {
        return 1;
    }
    at->addr = a;
    at->bytes = size;
    at->coded = so == 0 && (mask | 1u) == all && !(mask & 1u);
    if (!at->coded) { // stored as it is, or HDF5 must undo a filter
        return mask == all && size == cr * store_cols[c].size ? 0 : 1;
    }
    unsigned char head[STORE_SO_HEADER];
    const char *why = NULL;
    if (size < STORE_SO_HEADER || store_pread_all(r->vfd, head, sizeof(head), a)) {
        why = "a scale-offset chunk shorter than its header";
    } else if (store_so_header(&ev->so[c], head, size, &at->so, &why) == 0) {
        return 0;
    }
    return store_damaged(r, "column %s/%s, chunk %llu: %s", STORE_EVENT_GROUP, store_cols[c].name,
                         (unsigned long long)k, why);
}

int store_locate_chunks(struct reader *r, struct store_event_cols *ev, int c, uint64_t cr,
                        uint64_t n)
{
    int so, nfilters;
    uint64_t nfull = n / cr, nall = nfull + (n % cr != 0);
    // Every chunk takes at least a header's bytes: more than fit means damage HDF5 will name.
    if (filters_of(ev, c, cr, &so, &nfilters) || nall > r->vfd_size / STORE_SO_HEADER) {
        return 1;
    }
    struct store_chunk *at = nall ? calloc((size_t)nall, sizeof(*at)) : NULL;
    if (nall && !at) {
        return iodfg_error_set(r->err, IODFG_E_NOMEM, NULL);
    }
    unsigned all = (1u << nfilters) - 1;
    for (uint64_t k = 0; k < nfull; k++) {
        int rc = locate_one(r, ev, c, cr, so, all, k, &at[k]);
        if (rc) {
            free(at);
            return rc;
        }
    }
    // The last, partial chunk holds a whole chunk's values (HDF5 fills the rest) and is read
    // like the others when it is coded alike (iodfg-mpi's), so only rows asked for are decoded.
    int tail = nall > nfull ? locate_one(r, ev, c, cr, so, all, nfull, &at[nfull]) : 1;
    if (tail < 0) {
        free(at);
        return -1;
    }
    H5Eclear2(H5E_DEFAULT);
    ev->chunk_rows[c] = cr;
    ev->chunks[c] = at;
    ev->tail_first[c] = tail == 0 ? n : nfull * cr;
    ev->tail_deflated[c] = so == 0 && nfilters == 2; // filters_of allows only deflate second
    return 0;
}

int store_read_deflated_tail(const struct reader *r, const struct store_event_cols *ev, int c,
                             uint64_t n, void *out)
{
    uint64_t cr = ev->chunk_rows[c], first = ev->tail_first[c];
    hsize_t off[1] = {first};
    unsigned mask = 1;
    haddr_t a = HADDR_UNDEF;
    hsize_t size = 0;
    const struct store_so_params *p = &ev->so[c];
    size_t plain = store_so_bound(p);
    if (!ev->tail_deflated[c] || cr == 0 || first >= n || n - first > cr ||
        H5Dget_chunk_info_by_coord(ev->ids[c], off, &mask, &a, &size) < 0 || mask != 0 ||
        a == HADDR_UNDEF || a > r->vfd_size || size > r->vfd_size - a || size > plain) {
        H5Eclear2(H5E_DEFAULT);
        return 1;
    }
    unsigned char *z = malloc((size_t)size), *coded = malloc(plain + 8);
    uLongf got = (uLongf)plain;
    struct store_so_chunk h;
    const char *why = NULL;
    int rc = !z || !coded || store_pread_all(r->vfd, z, (size_t)size, a) ||
             uncompress(coded, &got, z, (uLong)size) != Z_OK ||
             store_so_header(p, coded, got, &h, &why) != 0;
    if (rc == 0) { // the decoder reads up to 8 bytes past the values
        memset(coded + got, 0, 8);
        store_so_decode(p, &h, coded + STORE_SO_HEADER, 0, n - first, out);
    }
    free(z);
    free(coded);
    return rc ? 1 : 0;
}

/* Rows [within, within + n) of a coded chunk into out, through scratch (big enough). */
static int read_coded(const struct reader *r, const struct store_so_params *p,
                      const struct store_chunk *ch, uint64_t within, uint64_t n,
                      unsigned char *scratch, void *out)
{
    uint64_t off, bytes;
    store_so_span(p, &ch->so, within, n, &off, &bytes);
    if (store_pread_all(r->vfd, scratch, (size_t)bytes, ch->addr + off)) {
        return -1;
    }
    memset(scratch + bytes, 0, 8);
    store_so_decode(p, &ch->so, scratch, within, n, out);
    return 0;
}

int store_pread_rows(const struct reader *r, int c, uint64_t first, uint64_t n, void *buf)
{
    const struct store_event_cols *ev = r->ev;
    size_t esz = store_cols[c].size;
    char *out = buf;
    unsigned char *scratch = NULL;
    int rc = 0;
    while (rc == 0 && n > 0 && first < ev->tail_first[c]) {
        uint64_t cr = ev->chunk_rows[c], take = n;
        if (cr == 0) {
            rc = store_pread_all(r->vfd, out, (size_t)take * esz, ev->addr[c] + first * esz);
        } else {
            uint64_t within = first % cr;
            const struct store_chunk *ch = &ev->chunks[c][first / cr];
            take = cr - within < n ? cr - within : n;
            if (!ch->coded) {
                rc = store_pread_all(r->vfd, out, (size_t)take * esz, ch->addr + within * esz);
            } else if (!scratch && !(scratch = malloc((size_t)cr * esz + 16))) {
                errno = ENOMEM;
                rc = -1;
            } else {
                rc = read_coded(r, &ev->so[c], ch, within, take, scratch, out);
            }
        }
        out += take * esz;
        first += take;
        n -= take;
    }
    free(scratch);
    if (rc == 0 && n > 0) { // rows of the last chunk, read at open
        memcpy(out, (const char *)ev->tail[c] + (first - ev->tail_first[c]) * esz, (size_t)n * esz);
    }
    return rc;
}
