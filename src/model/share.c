/* SPDX-License-Identifier: MIT */
/* Work shared out by weight (share.h). */
#include "config.h"

#include "iodfg/share.h"

/* The part whose share holds the point mid of all (in [0, all)). */
static int owner_of(double mid, double all, int nparts)
{
    int owner = (int)(mid / all * nparts);
    return owner >= nparts ? nparts - 1 : owner;
}

void iodfg_share_of(const uint64_t *w, size_t n, int p, int nparts, size_t *lo, size_t *hi)
{
    uint64_t total = 0;
    for (size_t i = 0; w && i < n; i++) {
        total += w[i];
    }
    uint64_t before = 0;
    *lo = *hi = n;
    for (size_t i = 0; i < n; i++) {
        double mid = total ? (double)before + (double)w[i] / 2.0 : (double)i + 0.5;
        int owner = owner_of(mid, total ? (double)total : (double)n, nparts);
        // owners rise with i: an empty share still lies between its neighbours'
        if (owner >= p && *lo == n) {
            *lo = i;
        }
        if (owner > p && *hi == n) {
            *hi = i;
        }
        before += total ? w[i] : 0;
    }
}
