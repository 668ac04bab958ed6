/* SPDX-License-Identifier: MIT */
/* Routing the placed overview (overview_priv.h): a port column per line at each box, tracks in
 * the gaps between layers for the hops that change column and for back edges, and the rows of
 * gaps and layers. */
#include "config.h"

#include <stdlib.h>

#include "tui/views/graph/overview_priv.h"

struct port_ref {
    int target; /* column the line heads to (for sorting) */
    int *col;   /* where the chosen column goes */
};

static int cmp_port(const void *a, const void *b)
{
    const struct port_ref *x = a, *y = b;
    return (x->target > y->target) - (x->target < y->target);
}

/* Spread k ports over the inner columns of a box (all on the one column of a dummy). */
static void assign_ports(const struct node *n, struct port_ref *p, int k)
{
    qsort(p, (size_t)k, sizeof(*p), cmp_port);
    int inner = n->w > 2 ? n->w - 2 : 1, x0 = n->w > 2 ? n->x + 1 : n->x;
    for (int i = 0; i < k; i++) {
        *p[i].col = x0 + (k <= inner ? (2 * i + 1) * inner / (2 * k) : i * inner / k);
    }
}

static int node_center(const struct node *n)
{
    return n->x + n->w / 2;
}

/* Assign node u's out ports (out = 1: towards the other end of each hop, back edges towards
 * their channel on the right) or in ports (out = 0: from where each line comes). */
static void node_ports(struct lay *L, int u, int out, int width, struct port_ref *pr)
{
    int k = 0;
    for (uint32_t s = 0; s < L->ns; s++) {
        struct seg *g = &L->s[s];
        if ((out ? g->from : g->to) == u) {
            pr[k++] = (struct port_ref){node_center(&L->n[out ? g->to : g->from]),
                                        out ? &g->px0 : &g->px1};
        }
    }
    for (uint32_t b = 0; b < L->nb; b++) {
        struct back *bk = &L->b[b];
        if ((out ? bk->from : bk->to) == u) {
            pr[k++] = (struct port_ref){bk->chan + width, out ? &bk->px0 : &bk->px1};
        }
    }
    assign_ports(&L->n[u], pr, k);
}

struct track_ref {
    int key;
    int *track;
};

static int cmp_track(const void *a, const void *b)
{
    const struct track_ref *x = a, *y = b;
    return (x->key > y->key) - (x->key < y->key);
}

/* Ports: out ports sorted by where the line heads, in ports by where it comes from. */
int tui_ov_place_ports(struct lay *L, int width)
{
    struct port_ref *pr = malloc(((size_t)L->ns + L->nb + 1) * sizeof(*pr));
    if (!pr) {
        return -1;
    }
    for (uint32_t u = 0; u < L->nn; u++) {
        node_ports(L, (int)u, 1, width, pr);
        node_ports(L, (int)u, 0, width, pr);
    }
    free(pr);
    return 0;
}

/* Tracks per gap g (the rows above layer g; gap nl is below the last layer): arrivals of back
 * edges first, then the hops that change column, then departures of back edges. 0 or -1. */
int tui_ov_route_tracks(struct lay *L, int nl)
{
    L->gap_tracks = calloc((size_t)nl + 1, sizeof(int));
    L->gap_y = calloc((size_t)nl + 1, sizeof(int));
    L->layer_y = calloc((size_t)nl + 1, sizeof(int));
    struct track_ref *tr = malloc(((size_t)L->ns + 2 * L->nb + 1) * sizeof(*tr));
    if (!L->gap_tracks || !L->gap_y || !L->layer_y || !tr) {
        free(tr);
        return -1;
    }
    for (int g = 0; g <= nl; g++) {
        int k = 0;
        for (uint32_t b = 0; b < L->nb; b++) {
            if (L->n[L->b[b].to].layer == g) {
                tr[k++] = (struct track_ref){-100000 - L->b[b].px1, &L->b[b].tarr};
            }
        }
        for (uint32_t s = 0; s < L->ns; s++) {
            const struct seg *sg = &L->s[s];
            if (L->n[sg->to].layer == g && sg->px0 != sg->px1) {
                // left-going hops from the left first, right-going ones from the right first,
                // so that nested hops do not cross
                int key = sg->px1 < sg->px0 ? sg->px0 : 50000 - sg->px0;
                tr[k++] = (struct track_ref){key, &L->s[s].track};
            }
        }
        for (uint32_t b = 0; b < L->nb; b++) {
            if (L->n[L->b[b].from].layer + 1 == g) {
                tr[k++] = (struct track_ref){100000 - L->b[b].px0, &L->b[b].tdep};
            }
        }
        qsort(tr, (size_t)k, sizeof(*tr), cmp_track);
        for (int i = 0; i < k; i++) {
            *tr[i].track = i;
        }
        L->gap_tracks[g] = k;
    }
    free(tr);
    return 0;
}

/* Rows: each gap as tall as its tracks (plus a free row between gap and layer), each layer
 * three rows (its boxes). Returns the height. */
int tui_ov_stack_rows(struct lay *L, int nl)
{
    int y = 0;
    for (int g = 0; g <= nl; g++) {
        L->gap_y[g] = y;
        int t = L->gap_tracks[g];
        y += g == 0 ? (t ? t + 1 : 0) : g == nl ? t : t + 1;
        if (g < nl) {
            L->layer_y[g] = y;
            y += 3;
        }
    }
    return y;
}
