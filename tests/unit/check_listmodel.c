/* SPDX-License-Identifier: MIT */
/* Unit tests for the sortable list model. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <string.h>

#include "iodfg/glyph.h"

#include "tui/listmodel.h"

#include "testutil.h"

struct act {
    const char *name;
    long count;
    double dur_ms;
};

static struct act acts[] = {
    {"write:/scratch/ssf", 48, 412.9}, {"write:/scratch/fpp", 48, 131.7},
    {"openat:/scratch/ssf", 8, 96.3},  {"openat:/scratch/fpp", 8, 12.0},
    {"read:/usr/lib", 760, 48.0},      {"lseek:/scratch/ssf", 96, 11.5},
};
static size_t nacts = 6;

static const struct tui_column cols[] = {
    {"Activity", 20, 0, TUI_COL_SORTABLE | TUI_COL_SEARCH | TUI_COL_FLEX, NULL},
    {"Count", 6, 0, TUI_COL_RIGHT | TUI_COL_SORTABLE | TUI_COL_DESC, NULL},
    {"Sdur", 9, 1, TUI_COL_RIGHT | TUI_COL_SORTABLE | TUI_COL_DESC, NULL},
    {"Bytes", 10, 2, TUI_COL_RIGHT, NULL},
};

static size_t rows(void *ctx)
{
    (void)ctx;
    return nacts;
}

static const char *cell(void *ctx, size_t row, int col, char *buf, size_t size)
{
    (void)ctx;
    switch (col) {
    case 0:
        return acts[row].name;
    case 1:
        snprintf(buf, size, "%ld", acts[row].count);
        return buf;
    case 2:
        snprintf(buf, size, "%.1fms", acts[row].dur_ms);
        return buf;
    default:
        return "-";
    }
}

static int compare(void *ctx, size_t a, size_t b, int col)
{
    (void)ctx;
    switch (col) {
    case 0:
        return strcmp(acts[a].name, acts[b].name);
    case 1:
        return (acts[a].count > acts[b].count) - (acts[a].count < acts[b].count);
    default:
        return (acts[a].dur_ms > acts[b].dur_ms) - (acts[a].dur_ms < acts[b].dur_ms);
    }
}

static unsigned long long row_key(void *ctx, size_t row)
{
    (void)ctx;
    unsigned long long h = 5381;
    for (const char *p = acts[row].name; *p; p++) {
        h = h * 33 + (unsigned char)*p;
    }
    return h;
}

static const struct tui_list_ops ops = {
    .rows = rows, .cell = cell, .compare = compare, .row_key = row_key};

static void order_is(const struct tui_listmodel *lm, const size_t *want)
{
    for (size_t i = 0; i < nacts; i++) {
        ck_assert_msg(tui_listmodel_row(lm, i) == want[i], "position %zu: row %zu, want %zu", i,
                      tui_listmodel_row(lm, i), want[i]);
    }
}

static struct tui_listmodel *make(void)
{
    nacts = 6;
    struct tui_listmodel *lm = tui_listmodel_new(cols, 4, &ops, NULL);
    ck_assert_ptr_nonnull(lm);
    ck_assert_int_eq(tui_listmodel_reload(lm), 0);
    return lm;
}

START_TEST(test_sorting)
{
    struct tui_listmodel *lm = make();
    ck_assert_uint_eq(tui_listmodel_count(lm), 6);
    order_is(lm, (size_t[]){0, 1, 2, 3, 4, 5});
    ck_assert_int_eq(tui_listmodel_sort_column(lm, NULL), -1);
    ck_assert_int_eq(tui_listmodel_sort_next(lm), 0);
    order_is(lm, (size_t[]){5, 3, 2, 4, 1, 0});
    ck_assert_int_eq(tui_listmodel_sort_next(lm), 1);
    int desc;
    ck_assert_int_eq(tui_listmodel_sort_column(lm, &desc), 1);
    ck_assert_int_eq(desc, 1);
    order_is(lm, (size_t[]){4, 5, 0, 1, 2, 3}); // ties keep source order
    tui_listmodel_sort_reverse(lm);
    ck_assert_int_eq(tui_listmodel_sort_column(lm, &desc), 1);
    ck_assert_int_eq(desc, 0);
    order_is(lm, (size_t[]){2, 3, 0, 1, 5, 4}); // still stable when reversed
    ck_assert_int_eq(tui_listmodel_sort_next(lm), 2);
    order_is(lm, (size_t[]){0, 1, 2, 4, 3, 5});
    ck_assert_int_eq(tui_listmodel_sort_next(lm), 0); // Bytes is not sortable
    ck_assert_int_eq(tui_listmodel_sort(lm, 3, 0), -1);
    ck_assert_int_eq(tui_listmodel_sort(lm, 0, 1), 0);
    order_is(lm, (size_t[]){0, 1, 4, 2, 3, 5});
    ck_assert_int_eq(tui_listmodel_sort(lm, -1, 0), 0);
    order_is(lm, (size_t[]){0, 1, 2, 3, 4, 5});
    tui_listmodel_free(lm);
}
END_TEST

START_TEST(test_cursor_follows_item)
{
    struct tui_listmodel *lm = make();
    tui_listmodel_set_cursor(lm, 4); // read:/usr/lib
    tui_listmodel_sort(lm, 1, 0);    // by count, descending: read first
    ck_assert_uint_eq(tui_listmodel_cursor(lm), 0);
    ck_assert_uint_eq(tui_listmodel_row(lm, tui_listmodel_cursor(lm)), 4);
    nacts = 5; // lseek disappears after a rebuild; read stays selected
    ck_assert_int_eq(tui_listmodel_reload(lm), 0);
    ck_assert_uint_eq(tui_listmodel_count(lm), 5);
    ck_assert_uint_eq(tui_listmodel_row(lm, tui_listmodel_cursor(lm)), 4);
    tui_listmodel_last(lm);
    nacts = 2; // the cursor's row is gone: clamp to the last row
    ck_assert_int_eq(tui_listmodel_reload(lm), 0);
    ck_assert_uint_eq(tui_listmodel_cursor(lm), 1);
    nacts = 0;
    ck_assert_int_eq(tui_listmodel_reload(lm), 0);
    ck_assert_uint_eq(tui_listmodel_cursor(lm), 0);
    ck_assert_uint_eq(tui_listmodel_top(lm), 0);
    tui_listmodel_move(lm, 3);
    ck_assert_uint_eq(tui_listmodel_cursor(lm), 0);
    tui_listmodel_free(lm);
}
END_TEST

START_TEST(test_scrolling)
{
    struct tui_listmodel *lm = make();
    tui_listmodel_set_height(lm, 3);
    ck_assert_uint_eq(tui_listmodel_top(lm), 0);
    tui_listmodel_move(lm, 4);
    ck_assert_uint_eq(tui_listmodel_cursor(lm), 4);
    ck_assert_uint_eq(tui_listmodel_top(lm), 2);
    tui_listmodel_move(lm, -3);
    ck_assert_uint_eq(tui_listmodel_cursor(lm), 1);
    ck_assert_uint_eq(tui_listmodel_top(lm), 1);
    tui_listmodel_last(lm);
    ck_assert_uint_eq(tui_listmodel_cursor(lm), 5);
    ck_assert_uint_eq(tui_listmodel_top(lm), 3);
    tui_listmodel_page(lm, -1); // a page is height - 1 = 2 rows
    ck_assert_uint_eq(tui_listmodel_cursor(lm), 3);
    ck_assert_uint_eq(tui_listmodel_top(lm), 1);
    tui_listmodel_page(lm, +1);
    ck_assert_uint_eq(tui_listmodel_cursor(lm), 5);
    ck_assert_uint_eq(tui_listmodel_top(lm), 3);
    tui_listmodel_move(lm, -100);
    ck_assert_uint_eq(tui_listmodel_cursor(lm), 0);
    ck_assert_uint_eq(tui_listmodel_top(lm), 0);
    tui_listmodel_move(lm, 100);
    ck_assert_uint_eq(tui_listmodel_cursor(lm), 5);
    tui_listmodel_set_height(lm, 10); // taller than the rows: no blank lines at the top
    ck_assert_uint_eq(tui_listmodel_top(lm), 0);
    tui_listmodel_set_height(lm, 4);
    ck_assert_uint_eq(tui_listmodel_top(lm), 2);
    tui_listmodel_first(lm);
    ck_assert_uint_eq(tui_listmodel_top(lm), 0);
    tui_listmodel_free(lm);
}
END_TEST

START_TEST(test_search)
{
    struct tui_listmodel *lm = make();
    tui_listmodel_sort(lm, 0, 0); // lseek, openat fpp, openat ssf, read, write fpp, write ssf
    ck_assert_uint_eq(tui_listmodel_cursor(lm), 5); // the cursor followed write:/scratch/ssf
    tui_listmodel_first(lm);
    tui_listmodel_search_begin(lm);
    ck_assert_int_eq(tui_listmodel_search_set(lm, "S"), 1);
    ck_assert_uint_eq(tui_listmodel_cursor(lm), 0); // lseek:/scratch/ssf has an s
    ck_assert_int_eq(tui_listmodel_search_set(lm, "SCRATCH/F"), 1);
    ck_assert_uint_eq(tui_listmodel_cursor(lm), 1);
    ck_assert_str_eq(tui_listmodel_search_pattern(lm), "SCRATCH/F");
    ck_assert_int_eq(tui_listmodel_matches(lm, 1), 1);
    ck_assert_int_eq(tui_listmodel_matches(lm, 2), 0);
    ck_assert_int_eq(tui_listmodel_search_next(lm, +1), 1);
    ck_assert_uint_eq(tui_listmodel_cursor(lm), 4);
    ck_assert_int_eq(tui_listmodel_search_next(lm, +1), 1); // wraps
    ck_assert_uint_eq(tui_listmodel_cursor(lm), 1);
    ck_assert_int_eq(tui_listmodel_search_next(lm, -1), 1); // wraps back
    ck_assert_uint_eq(tui_listmodel_cursor(lm), 4);
    ck_assert_int_eq(tui_listmodel_search_set(lm, "zzz"), 0);
    ck_assert_uint_eq(tui_listmodel_cursor(lm), 4);           // no match: the cursor stays
    ck_assert_int_eq(tui_listmodel_search_set(lm, "760"), 0); // Count is not searchable
    ck_assert_int_eq(tui_listmodel_search_set(lm, ""), 0);
    ck_assert_uint_eq(tui_listmodel_cursor(lm), 0); // back where the search began
    ck_assert_int_eq(tui_listmodel_search_next(lm, +1), 0);
    // a search that starts lower down finds the next match below first
    tui_listmodel_set_cursor(lm, 3);
    tui_listmodel_search_begin(lm);
    ck_assert_int_eq(tui_listmodel_search_set(lm, "ssf"), 1);
    ck_assert_uint_eq(tui_listmodel_cursor(lm), 5);
    tui_listmodel_free(lm);
}
END_TEST

/* The search takes a regex (caseless, match-limited), as text while it is not one yet, and says
 * when it went round an end. */
START_TEST(test_search_regex)
{
    struct tui_listmodel *lm = make();
    tui_listmodel_sort(lm, 0, 0); // lseek, openat fpp, openat ssf, read, write fpp, write ssf
    tui_listmodel_first(lm);
    tui_listmodel_search_begin(lm);
    ck_assert_int_eq(tui_listmodel_search_set(lm, "^(OPENAT|write):.*SSF$"), 1);
    ck_assert_uint_eq(tui_listmodel_cursor(lm), 2); // openat:/scratch/ssf
    ck_assert_ptr_null(tui_listmodel_search_error(lm));
    ck_assert_int_eq(tui_listmodel_matches(lm, 4), 0); // write:/scratch/fpp
    ck_assert_int_eq(tui_listmodel_matches(lm, 3), 0); // read:/usr/lib
    ck_assert_int_eq(tui_listmodel_search_next(lm, +1), 1);
    ck_assert_uint_eq(tui_listmodel_cursor(lm), 5);
    ck_assert_int_eq(tui_listmodel_search_wrapped(lm), 0);
    ck_assert_int_eq(tui_listmodel_search_next(lm, +1), 1); // round the end
    ck_assert_uint_eq(tui_listmodel_cursor(lm), 2);
    ck_assert_int_eq(tui_listmodel_search_wrapped(lm), 1);
    ck_assert_int_eq(tui_listmodel_search_next(lm, -1), 1); // and back round the start
    ck_assert_uint_eq(tui_listmodel_cursor(lm), 5);
    ck_assert_int_eq(tui_listmodel_search_wrapped(lm), 1);
    // not a regex (yet): the text as it is, and why
    ck_assert_int_eq(tui_listmodel_search_set(lm, "scratch/("), 0);
    ck_assert_ptr_nonnull(tui_listmodel_search_error(lm));
    ck_assert_int_eq(tui_listmodel_search_set(lm, "h/s"), 1);
    ck_assert_ptr_null(tui_listmodel_search_error(lm));
    tui_listmodel_free(lm);
}
END_TEST

/* Name columns: the spare width shared by the flex columns, the name of a row, the scroll. */
START_TEST(test_names)
{
    static const struct tui_column two[] = {
        {"From", 10, 0, TUI_COL_FLEX | TUI_COL_NAME, NULL},
        {"To", 10, 0, TUI_COL_FLEX | TUI_COL_NAME, NULL},
        {"Count", 5, 0, TUI_COL_RIGHT, NULL},
    };
    struct tui_listmodel *lm = tui_listmodel_new(two, 3, &ops, NULL);
    ck_assert_ptr_nonnull(lm);
    ck_assert_int_eq(tui_listmodel_reload(lm), 0);
    int w[3];
    ck_assert_int_eq(tui_listmodel_layout(lm, 50, 2, w), 3); // 21 spare: 11 and 10
    ck_assert_int_eq(w[0], 21);
    ck_assert_int_eq(w[1], 20);
    ck_assert_int_eq(w[2], 5);
    char buf[128];
    const char *arrow = iodfg_glyph_text(" → ");
    char want[128];
    char c0[64], c1[64];
    snprintf(want, sizeof(want), "%s%s%s", tui_listmodel_cell(lm, 0, 0, c0, sizeof(c0)), arrow,
             tui_listmodel_cell(lm, 0, 1, c1, sizeof(c1)));
    ck_assert_str_eq(tui_listmodel_name(lm, 0, buf, sizeof(buf)), want);
    tui_listmodel_set_hscroll(lm, -3);
    ck_assert_int_eq(tui_listmodel_hscroll(lm), 0);
    tui_listmodel_set_hscroll(lm, 16);
    ck_assert_int_eq(tui_listmodel_hscroll(lm), 16);
    tui_listmodel_free(lm);
}
END_TEST

START_TEST(test_layout)
{
    struct tui_listmodel *lm = make();
    int w[4];
    ck_assert_int_eq(tui_listmodel_layout(lm, 60, 2, w), 4); // 20+6+9+10 + 3*2 = 51
    ck_assert_int_eq(w[0], 29);
    ck_assert_int_eq(w[1], 6);
    ck_assert_int_eq(w[2], 9);
    ck_assert_int_eq(w[3], 10);
    ck_assert_int_eq(tui_listmodel_layout(lm, 45, 2, w), 3); // Bytes (priority 2) goes first
    ck_assert_int_eq(w[3], 0);
    ck_assert_int_eq(w[0], 26);
    ck_assert_int_eq(tui_listmodel_layout(lm, 30, 2, w), 2); // then Sdur
    ck_assert_int_eq(w[2], 0);
    ck_assert_int_eq(w[0], 22);
    ck_assert_int_eq(tui_listmodel_layout(lm, 10, 2, w), 2); // priority 0 always stays
    ck_assert_int_eq(w[0], 20);
    ck_assert_int_eq(w[1], 6);
    tui_listmodel_free(lm);
}
END_TEST

START_TEST(test_cells)
{
    struct tui_listmodel *lm = make();
    tui_listmodel_sort(lm, 2, 0);
    char buf[64];
    ck_assert_str_eq(tui_listmodel_cell(lm, 0, 0, buf, sizeof(buf)), "write:/scratch/ssf");
    ck_assert_str_eq(tui_listmodel_cell(lm, 0, 2, buf, sizeof(buf)), "412.9ms");
    ck_assert_str_eq(tui_listmodel_cell(lm, 99, 0, buf, sizeof(buf)), "");
    ck_assert_str_eq(tui_listmodel_cell(lm, 0, 7, buf, sizeof(buf)), "");
    ck_assert_int_eq(tui_listmodel_cell_style(lm, 0, 0), -1);
    ck_assert_int_eq(tui_listmodel_ncols(lm), 4);
    ck_assert_str_eq(tui_listmodel_column(lm, 1)->title, "Count");
    ck_assert_ptr_null(tui_listmodel_column(lm, 4));
    tui_listmodel_free(lm);
    tui_listmodel_free(NULL);
}
END_TEST

START_TEST(test_text_compare_fallback)
{
    // Without a compare callback, rows sort by their cell text (byte order).
    static const struct tui_list_ops text_ops = {.rows = rows, .cell = cell};
    nacts = 6;
    struct tui_listmodel *lm = tui_listmodel_new(cols, 4, &text_ops, NULL);
    ck_assert_int_eq(tui_listmodel_reload(lm), 0);
    ck_assert_int_eq(tui_listmodel_sort(lm, 1, 1),
                     0); // Count as text, ascending: "48" < "760" < "8" < "96"
    order_is(lm, (size_t[]){0, 1, 4, 2, 3, 5});
    ck_assert_uint_eq(tui_listmodel_cursor(lm), 0); // no row_key: the position stays
    tui_listmodel_free(lm);
}
END_TEST

/* The exported cell: exact_cell where given, in sorted position; the shown text elsewhere. */
static const char *exact(void *ctx, size_t row, int col, char *buf, size_t size)
{
    if (col != 2) {
        return cell(ctx, row, col, buf, size);
    }
    snprintf(buf, size, "%.0f", acts[row].dur_ms * 1e6);
    return buf;
}

START_TEST(test_exact_cells)
{
    struct tui_listmodel *lm = make();
    char buf[64];
    tui_listmodel_sort(lm, 1, 0); // by count, descending: read:/usr/lib (760) first
    ck_assert_str_eq(tui_listmodel_exact_cell(lm, 0, 2, buf, sizeof(buf)), "48.0ms"); // no exact
    tui_listmodel_free(lm);
    static const struct tui_list_ops with_exact = {
        .rows = rows, .cell = cell, .compare = compare, .exact_cell = exact};
    lm = tui_listmodel_new(cols, 4, &with_exact, NULL);
    ck_assert_int_eq(tui_listmodel_reload(lm), 0);
    tui_listmodel_sort(lm, 1, 0);
    ck_assert_str_eq(tui_listmodel_exact_cell(lm, 0, 2, buf, sizeof(buf)), "48000000");
    ck_assert_str_eq(tui_listmodel_cell(lm, 0, 2, buf, sizeof(buf)), "48.0ms");
    ck_assert_str_eq(tui_listmodel_exact_cell(lm, 0, 0, buf, sizeof(buf)), "read:/usr/lib");
    ck_assert_str_eq(tui_listmodel_exact_cell(lm, 99, 2, buf, sizeof(buf)), "");
    tui_listmodel_free(lm);
}
END_TEST

static Suite *listmodel_suite(void)
{
    Suite *s = suite_create("listmodel");
    TCase *tc = tcase_create("model");
    tcase_add_test(tc, test_sorting);
    tcase_add_test(tc, test_cursor_follows_item);
    tcase_add_test(tc, test_scrolling);
    tcase_add_test(tc, test_search);
    tcase_add_test(tc, test_search_regex);
    tcase_add_test(tc, test_names);
    tcase_add_test(tc, test_layout);
    tcase_add_test(tc, test_cells);
    tcase_add_test(tc, test_text_compare_fallback);
    tcase_add_test(tc, test_exact_cells);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return testutil_run(listmodel_suite());
}
