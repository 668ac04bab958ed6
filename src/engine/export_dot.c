/* SPDX-License-Identifier: MIT */
/* DOT export: statistics colouring (shades of blue) or G/R partition colouring. */
#include "config.h"

#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/dfg.h"
#include "iodfg/diff.h"
#include "iodfg/error.h"
#include "iodfg/export.h"
#include "iodfg/format.h"
#include "iodfg/mapping.h"
#include "iodfg/sanitize.h"
#include "iodfg/stats.h"

static void add_str(struct iodfg_buf *b, const char *s)
{
    iodfg_buf_add(b, s, strlen(s));
}

void iodfg_dot_options_init(struct iodfg_dot_options *o)
{
    memset(o, 0, sizeof(*o));
    o->shade = IODFG_SHADE_RD;
    o->palette = IODFG_PALETTE_GREEN_RED;
}

/* Colours of a partition side: border/edge colour and node fill, per palette. */
static const char *const side_line[2][2] = {{"#1a9641", "#d7191c"}, {"#0072b2", "#e69f00"}};
static const char *const side_fill[2][2] = {{"#c7e9c0", "#fcbba1"}, {"#c6dbef", "#fdd9a0"}};

static double shade_value(const struct iodfg_activity_stats *s, enum iodfg_shade shade)
{
    switch (shade) {
    case IODFG_SHADE_RD:
        return s->rd;
    case IODFG_SHADE_BYTES:
        return (double)s->bytes;
    case IODFG_SHADE_COUNT:
        return (double)s->count;
    case IODFG_SHADE_MC:
        return (double)s->mc;
    case IODFG_SHADE_DR:
        return s->DR;
    case IODFG_SHADE_NONE:
        break;
    }
    return 0.0;
}

static void comment_block(struct iodfg_buf *b, const char *text)
{
    while (text && *text) {
        const char *nl = strchr(text, '\n');
        size_t len = nl ? (size_t)(nl - text) : strlen(text);
        add_str(b, "// ");
        iodfg_sanitize_term(b, text, len); // printable only: the line cannot end the comment
        add_str(b, "\n");
        text += len + (nl != NULL);
    }
}

static void node_label(struct iodfg_buf *b, const struct iodfg_mapping *map,
                       const struct iodfg_activity_stats *s, uint32_t a, const char *marker)
{
    char rd[IODFG_FORMAT_MIN], by[IODFG_FORMAT_MIN], dr[IODFG_FORMAT_MIN];
    size_t len;
    const char *name = iodfg_export_node_name(map, a, &len);
    add_str(b, "label=\"");
    if (marker) {
        iodfg_buf_addf(b, "[%s] ", marker);
    }
    iodfg_sanitize_dot(b, name, len);
    iodfg_buf_addf(b, "\\nLoad: %s (%s)\\nDR: %u \xc3\x97 %s\"",
                   iodfg_format_percent(rd, sizeof(rd), s->rd, 0),
                   iodfg_format_bytes(by, sizeof(by), s->bytes, 0), s->mc,
                   iodfg_format_rate(dr, sizeof(dr), s->dr_mean, 0));
}

static void node_id(struct iodfg_buf *b, uint32_t n)
{
    if (n == IODFG_NODE_START) {
        add_str(b, "start");
    } else if (n == IODFG_NODE_END) {
        add_str(b, "end");
    } else {
        iodfg_buf_addf(b, "a%u", n);
    }
}

static void nodes(struct iodfg_buf *b, const struct iodfg_stats *st,
                  const struct iodfg_mapping *map, const struct iodfg_dot_options *opt)
{
    double max = 0.0;
    for (uint32_t a = 0; a < st->nactivities; a++) {
        int on = st->act[a].count && (!opt->node_on || opt->node_on[a]);
        double v = on ? shade_value(&st->act[a], opt->shade) : 0.0;
        max = v > max ? v : max;
    }
    int pal = opt->palette == IODFG_PALETTE_BLUE_ORANGE;
    for (uint32_t a = 0; a < st->nactivities; a++) {
        const struct iodfg_activity_stats *s = &st->act[a];
        int side = opt->diff && a < opt->diff->nactivities ? (int)opt->diff->nodes[a].side : 0;
        if (!(opt->node_on ? opt->node_on[a] : s->count || side)) {
            continue;
        }
        iodfg_buf_addf(b, "  a%u [", a);
        if (opt->diff) {
            const char *marker = side == IODFG_DIFF_G_ONLY   ? "G"
                                 : side == IODFG_DIFF_R_ONLY ? "R"
                                                             : NULL;
            node_label(b, map, s, a, marker);
            if (marker) {
                int r = side == IODFG_DIFF_R_ONLY;
                iodfg_buf_addf(b, ", color=\"%s\", fillcolor=\"%s\", penwidth=2", side_line[pal][r],
                               side_fill[pal][r]);
            }
        } else {
            node_label(b, map, s, a, NULL);
            double t = max > 0.0 ? shade_value(s, opt->shade) / max : 0.0;
            // from #f7fbff (light) to #08306b (dark blue)
            int r = (int)(247 + (8 - 247) * t + 0.5), g = (int)(251 + (48 - 251) * t + 0.5),
                bl = (int)(255 + (107 - 255) * t + 0.5);
            iodfg_buf_addf(b, ", fillcolor=\"#%02x%02x%02x\"%s", r, g, bl,
                           t > 0.55 ? ", fontcolor=\"white\"" : "");
        }
        add_str(b, "];\n");
    }
}

static void edges(struct iodfg_buf *b, const struct iodfg_dfg *g,
                  const struct iodfg_dot_options *opt)
{
    int pal = opt->palette == IODFG_PALETTE_BLUE_ORANGE;
    for (size_t i = 0; i < iodfg_dfg_slots(g); i++) {
        const struct iodfg_dfg_edge *e = iodfg_dfg_edge_at(g, i);
        if (opt->edge_on ? !opt->edge_on[i] : !e->count) {
            continue;
        }
        add_str(b, "  ");
        node_id(b, e->from);
        add_str(b, " -> ");
        node_id(b, e->to);
        const struct iodfg_diff_edge *de =
            opt->diff ? iodfg_diff_find_edge(opt->diff, e->from, e->to) : NULL;
        if (de && (de->side == IODFG_DIFF_G_ONLY || de->side == IODFG_DIFF_R_ONLY)) {
            int r = de->side == IODFG_DIFF_R_ONLY;
            iodfg_buf_addf(b, " [label=\"%s %llu\", color=\"%s\", fontcolor=\"%s\", penwidth=2];\n",
                           r ? "R" : "G", (unsigned long long)e->count, side_line[pal][r],
                           side_line[pal][r]);
        } else {
            iodfg_buf_addf(b, " [label=\"%llu\"];\n", (unsigned long long)e->count);
        }
    }
}

int iodfg_export_dot(struct iodfg_buf *b, const struct iodfg_dfg *g, const struct iodfg_stats *st,
                     const struct iodfg_mapping *map, const struct iodfg_dot_options *opt,
                     struct iodfg_error *err)
{
    struct iodfg_dot_options def;
    if (!opt) {
        iodfg_dot_options_init(&def);
        opt = &def;
    }
    comment_block(b, opt->comment);
    add_str(b, "digraph dfg {\n");
    add_str(b, "  node [shape=box, style=\"rounded,filled\", fillcolor=\"white\", "
               "fontname=\"Helvetica\"];\n  edge [fontname=\"Helvetica\"];\n");
    add_str(b, "  start [label=\"\xe2\x97\x8f\", shape=circle, fillcolor=\"black\", "
               "fontcolor=\"white\"];\n  end [label=\"\xe2\x96\xa0\", shape=square, "
               "fillcolor=\"black\", fontcolor=\"white\"];\n");
    nodes(b, st, map, opt);
    edges(b, g, opt);
    add_str(b, "}\n");
    return b->failed ? iodfg_error_set(err, IODFG_E_NOMEM, "out of memory writing DOT") : 0;
}
