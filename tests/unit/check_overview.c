/* SPDX-License-Identifier: MIT */
/* Unit tests of the Graph view's overview layout: layers, dummy nodes on long edges, ports and
 * arrows, back edges along channels (and listed beyond the channels), self-loops in the box,
 * edge-count labels, and the refusals (too many nodes, too wide). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "testutil.h"
#include "tui/views/graph/overview.h"

static struct tui_overview OV;
static char why[200];

static void setup(void)
{
    tui_overview_init(&OV);
    why[0] = '\0';
}

static void teardown(void)
{
    tui_overview_fini(&OV);
}

/* The canvas as ASCII text rows (lines + - |, arrows v, labels, box texts), for assertions. */
static char *render(void)
{
    static const char g[16] = {' ', '|', '-', '+', '|', '|', '+', '+',
                               '-', '+', '-', '+', '+', '+', '+', '+'};
    size_t w = (size_t)OV.w + 1;
    char *t = malloc(w * (size_t)OV.h + 1);
    ck_assert_ptr_nonnull(t);
    for (int y = 0; y < OV.h; y++) {
        for (int x = 0; x < OV.w; x++) {
            uint8_t c = OV.cell[(size_t)y * (size_t)OV.w + (size_t)x];
            t[(size_t)y * w + (size_t)x] = c & TUI_OV_ARROW ? 'v' : g[c & 15];
        }
        t[(size_t)y * w + (size_t)OV.w] = '\n';
    }
    t[w * (size_t)OV.h] = '\0';
    for (size_t i = 0; i < OV.nlabels; i++) {
        memcpy(t + (size_t)OV.label[i].y * w + (size_t)OV.label[i].x, OV.label[i].text,
               strlen(OV.label[i].text));
    }
    for (uint32_t i = 0; i < OV.nnodes; i++) {
        const struct tui_ov_box *b = &OV.box[i];
        char line[128];
        char txt[64];
        tui_overview_node_text(&b->node, 0, txt, sizeof(txt));
        snprintf(line, sizeof(line), "%.*s%s%s", b->label_w, b->node.label, txt[0] ? " " : "", txt);
        memcpy(t + (size_t)(b->y + 1) * w + (size_t)b->x + 1, line, strlen(line));
    }
    return t;
}

static int count_char(const char *s, char c)
{
    int n = 0;
    for (; *s; s++) {
        n += *s == c;
    }
    return n;
}

/* The row of text starting at canvas row y. */
static void row(const char *t, int y, char *out, size_t size)
{
    const char *p = t;
    for (int i = 0; i < y && p; i++) {
        p = strchr(p, '\n');
        p = p ? p + 1 : NULL;
    }
    ck_assert_ptr_nonnull(p);
    size_t n = (size_t)(strchr(p, '\n') - p);
    n = n < size - 1 ? n : size - 1;
    memcpy(out, p, n);
    while (n > 0 && out[n - 1] == ' ') {
        n--;
    }
    out[n] = '\0';
}

/* ● -> a -> b -> ■ and ● -> b: b's layer is 2 (longest path), the short edge gets a dummy. */
START_TEST(test_chain_and_long_edge)
{
    struct tui_ov_node_in n[] = {{"S", 0, 0, 0}, {"a", 5, 0, 1}, {"b", 7, 0, 2}, {"E", 0, 0, 3}};
    struct tui_ov_edge_in e[] = {{0, 1, 3}, {1, 2, 5}, {2, 3, 3}, {0, 2, 2}};
    ck_assert_int_eq(tui_overview_layout(&OV, n, 4, e, 4, 0, 40, why, sizeof(why)), 0);
    ck_assert_uint_eq(OV.nlayers, 4);
    ck_assert_int_eq(OV.box[0].layer, 0);
    ck_assert_int_eq(OV.box[1].layer, 1);
    ck_assert_int_eq(OV.box[2].layer, 2);
    ck_assert_int_eq(OV.box[3].layer, 3);
    ck_assert_uint_eq(OV.nback, 0);
    char *t = render();
    // one arrowhead per edge into a box: a, b (twice: from a and via the dummy), E
    ck_assert_int_eq(count_char(t, 'v'), 4);
    // every box shows its label and count
    ck_assert_ptr_nonnull(strstr(t, "|a 5|"));
    ck_assert_ptr_nonnull(strstr(t, "|b 7|"));
    // S has two out-ports, so its box is wide enough for a column each: "|S  |"
    ck_assert_ptr_nonnull(strstr(t, "|S  |"));
    ck_assert_int_eq(OV.box[0].w, 5);
    // layers go down the canvas
    ck_assert_int_lt(OV.box[0].y + 2, OV.box[1].y);
    ck_assert_int_lt(OV.box[1].y + 2, OV.box[2].y);
    // counts are labelled: 5 on a -> b, 3 into E
    ck_assert_ptr_nonnull(strstr(t, "5"));
    free(t);
}
END_TEST

/* A loop a -> b -> a: one back edge drawn along the rightmost channel, with its count. */
START_TEST(test_back_edge_channel)
{
    struct tui_ov_node_in n[] = {
        {"S", 0, 0, 0}, {"read:/d", 10, 0, 1}, {"lseek:/d", 9, 0, 2}, {"E", 0, 0, 3}};
    struct tui_ov_edge_in e[] = {{0, 1, 1}, {1, 2, 9}, {2, 1, 9}, {1, 3, 1}};
    ck_assert_int_eq(tui_overview_layout(&OV, n, 4, e, 4, 0, 60, why, sizeof(why)), 0);
    ck_assert_uint_eq(OV.nback, 1);
    ck_assert_uint_eq(OV.nundrawn, 0);
    char *t = render();
    // the channel is the last column: a vertical run there
    int vert = 0;
    for (int y = 0; y < OV.h; y++) {
        vert += (OV.cell[(size_t)y * (size_t)OV.w + (size_t)OV.w - 1] & (TUI_OV_N | TUI_OV_S)) ==
                (TUI_OV_N | TUI_OV_S);
    }
    ck_assert_int_ge(vert, 3);
    ck_assert_int_eq(count_char(t, 'v'), 4); // read (x2), lseek, E
    // the back edge's count sits on its departure track
    char r[128];
    int found = 0;
    for (int y = 0; y < OV.h && !found; y++) {
        row(t, y, r, sizeof(r));
        found = strstr(r, "-9-") != NULL;
    }
    ck_assert_msg(found, "no back-edge label in\n%s", t);
    free(t);
}
END_TEST

START_TEST(test_self_loop_in_box)
{
    struct tui_ov_node_in n[] = {{"S", 0, 0, 0}, {"write:/p", 48, 44, 1}, {"E", 0, 0, 2}};
    struct tui_ov_edge_in e[] = {{0, 1, 4}, {1, 2, 4}};
    ck_assert_int_eq(tui_overview_layout(&OV, n, 3, e, 2, 0, 80, why, sizeof(why)), 0);
    char *t = render();
    ck_assert_ptr_nonnull(strstr(t, "|write:/p 48 ~44|"));
    char txt[64];
    tui_overview_node_text(&n[1], 1, txt, sizeof(txt));
    ck_assert_str_eq(txt, "48 ↻44");
    // a straight chain: every edge is a straight vertical, no tracks
    ck_assert_int_eq(OV.box[1].y, OV.box[0].y + 4);
    ck_assert_int_eq(OV.box[2].y, OV.box[1].y + 4);
    free(t);
}
END_TEST

/* More back edges than channels: the rest are listed, not drawn. */
START_TEST(test_undrawn_back_edges)
{
    enum { K = TUI_OV_MAX_CHANNELS + 3 };
    struct tui_ov_node_in n[K + 2];
    struct tui_ov_edge_in e[3 * K];
    uint32_t ne = 0;
    n[0] = (struct tui_ov_node_in){"S", 0, 0, 0};
    for (uint32_t i = 1; i <= K; i++) {
        n[i] = (struct tui_ov_node_in){"x", i, 0, i};
        e[ne++] = (struct tui_ov_edge_in){i - 1, i, 1};
        if (i > 1) {
            e[ne++] = (struct tui_ov_edge_in){i, i - 1, 1}; // back to the previous layer
        }
    }
    ck_assert_int_eq(tui_overview_layout(&OV, n, K + 1, e, ne, 0, 80, why, sizeof(why)), 0);
    ck_assert_uint_eq(OV.nback, K - 1);
    ck_assert_uint_eq(OV.nundrawn, K - 1 - TUI_OV_MAX_CHANNELS);
    for (uint32_t i = 0; i < OV.nundrawn; i++) {
        ck_assert_uint_gt(e[OV.undrawn[i]].from, e[OV.undrawn[i]].to);
    }
}
END_TEST

START_TEST(test_refusals)
{
    struct tui_ov_node_in n[TUI_OV_MAX_NODES + 1];
    for (int i = 0; i <= TUI_OV_MAX_NODES; i++) {
        n[i] = (struct tui_ov_node_in){"a-rather-long-activity-name", 1, 0, (uint32_t)i};
    }
    struct tui_ov_edge_in e[TUI_OV_MAX_NODES];
    for (int i = 0; i < TUI_OV_MAX_NODES; i++) {
        e[i] = (struct tui_ov_edge_in){0, (uint32_t)i + 1, 1};
    }
    ck_assert_int_eq(
        tui_overview_layout(&OV, n, TUI_OV_MAX_NODES + 1, e, 0, 0, 80, why, sizeof(why)), -1);
    ck_assert_ptr_nonnull(strstr(why, "the overview draws up to 48"));
    // four wide boxes in one layer do not fit 80 columns
    ck_assert_int_eq(tui_overview_layout(&OV, n, 5, e, 4, 0, 80, why, sizeof(why)), -1);
    ck_assert_ptr_nonnull(strstr(why, "too wide for 80 columns"));
    ck_assert_int_eq(OV.nnodes, 0);
    ck_assert_int_eq(tui_overview_layout(&OV, n, 5, e, 4, 0, 200, why, sizeof(why)), 0);
    ck_assert_uint_eq(OV.nlayers, 2);
}
END_TEST

/* Labels are measured as drawn: a long or escaped label is clipped to the box's label width. */
START_TEST(test_label_width)
{
    struct tui_ov_node_in n[] = {{"S", 0, 0, 0},
                                 {"write:/p/scratch/a/very/long/path/name/beyond", 3, 0, 1}};
    struct tui_ov_edge_in e[] = {{0, 1, 3}};
    ck_assert_int_eq(tui_overview_layout(&OV, n, 2, e, 1, 0, 80, why, sizeof(why)), 0);
    ck_assert_int_eq(OV.box[1].label_w, TUI_OV_LABEL_MAX);
    ck_assert_int_eq(OV.box[1].w, TUI_OV_LABEL_MAX + 2 + 2); // " 3" and the borders
}
END_TEST

/* A graph too wide keeps the most frequent nodes that fit, connected to the start: start ->
 * x_i (count i+1) for ten wide nodes, and a node only reachable through the rarest. */
START_TEST(test_fit_keeps_frequent_connected)
{
    struct tui_ov_node_in n[13];
    struct tui_ov_edge_in e[12];
    n[0] = (struct tui_ov_node_in){"S", 0, 0, 100};
    for (uint32_t i = 1; i <= 10; i++) {
        n[i] = (struct tui_ov_node_in){"a-rather-long-activity-name", i, 0, i};
        e[i - 1] = (struct tui_ov_edge_in){0, i, i};
    }
    n[11] = (struct tui_ov_node_in){"behind-the-rarest", 50, 0, 11}; // frequent, but via node 1
    e[10] = (struct tui_ov_edge_in){1, 11, 50};
    n[12] = (struct tui_ov_node_in){"E", 0, 0, 101};
    e[11] = (struct tui_ov_edge_in){11, 1, 50}; // and back: no edge to the end node
    ck_assert_int_eq(tui_overview_layout(&OV, n, 13, e, 12, 0, 100, why, sizeof(why)), -1);
    int hidden = tui_overview_fit(&OV, n, 13, e, 12, 0, 100, why, sizeof(why));
    ck_assert_int_gt(hidden, 0);
    ck_assert_uint_eq(OV.nnodes, 13 - (uint32_t)hidden);
    int seen[13] = {0};
    for (uint32_t i = 0; i < OV.nnodes; i++) {
        uint32_t id = OV.box[i].node.id;
        seen[id == 100 ? 0 : id == 101 ? 12 : id] = 1;
    }
    ck_assert(seen[0] && seen[12]);     // start and end always stay
    for (uint32_t i = 2; i < 10; i++) { // kept nodes are the most frequent ones
        ck_assert(!seen[i] || seen[i + 1]);
    }
    ck_assert(!seen[11] || seen[1]); // never without the node that connects it
    // enough room: nothing hidden, the same as the plain layout
    ck_assert_int_eq(tui_overview_fit(&OV, n, 13, e, 12, 0, 2000, why, sizeof(why)), 0);
    ck_assert_uint_eq(OV.nnodes, 13);
    // not even one activity beside start and end fits: the layout's reason
    ck_assert_int_eq(tui_overview_fit(&OV, n, 13, e, 12, 0, 20, why, sizeof(why)), -1);
    ck_assert_ptr_nonnull(strstr(why, "too wide"));
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("overview");
    TCase *tc = tcase_create("layout");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, test_chain_and_long_edge);
    tcase_add_test(tc, test_back_edge_channel);
    tcase_add_test(tc, test_self_loop_in_box);
    tcase_add_test(tc, test_undrawn_back_edges);
    tcase_add_test(tc, test_refusals);
    tcase_add_test(tc, test_label_width);
    tcase_add_test(tc, test_fit_keeps_frequent_connected);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(suite());
}
