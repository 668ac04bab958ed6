/* SPDX-License-Identifier: MIT */
/* The Offsets view's state and what its files share: the view (offsets_view.c: ops, commands,
 * which file, the list of data files), the grid of marks (offsets_grid.c) and the page
 * (offsets_page.c). */
#ifndef IODFG_TUI_VIEWS_OFFSETS_OFFSETS_VIEW_H
#define IODFG_TUI_VIEWS_OFFSETS_OFFSETS_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "iodfg/offsetmap.h"

#include "tui/views/picture.h"

struct tui_app;
struct tui_listmodel;
struct tui_page;

/* Why the shown file is the one shown. */
enum tui_offsets_why { TUI_OFFSETS_MOST_BYTES, TUI_OFFSETS_ACTIVITY, TUI_OFFSETS_PICKED };

struct tui_offsets_view {
    struct iodfg_offsetmap om;
    uint64_t built;                     /* the app's generation + 1 om was built for (0: none) */
    struct iodfg_offsetmap_file *files; /* the selection's data files, most bytes first */
    size_t nfiles;
    uint64_t files_built;
    uint32_t *sorted_paths; /* the files' paths in id order (to look one up) */
    uint32_t pick;          /* the file picked from the list (UINT32_MAX: none) */
    enum tui_offsets_why why;
    int by_rw;                 /* marks by read or write (else by case) */
    struct tui_picture_zoom z; /* over the points' time span */
    uint32_t cursor;           /* the case row whose patterns the detail line names */
    int list;                  /* the list of data files is shown (Enter picks) */
    struct tui_listmodel *lm;
    char error[320];
    uint64_t failed;      /* the generation + 1 whose build failed (not tried again) */
    uint32_t failed_path; /* for this file */
    /* the build runs in the background on logs of async_min events or more (0:
     * TUI_OFFSETS_ASYNC_EVENTS): offsets_job.c */
    struct tui_offsets_job *job; /* running or finished but not installed; NULL when none */
    uint64_t async_min;
    double build_ms, build_cpu_ms; /* the installed background build's wall and CPU time */
    /* the grid drawn last, kept while its map, window, size and cursor stay (offsets_page.c) */
    uint64_t serial; /* counts the maps built or installed */
    struct tui_offsets_cell *cells;
    size_t cells_cap;
    uint64_t grid_serial;
    int64_t grid_from, grid_to, grid_rb;
    int grid_ncols, grid_nrows;
    uint32_t grid_cursor;
};

/* Bring the files and the map up to date with the generation and the file to show: the one
 * picked, else the selected activity's when its data files are one, else the one with most
 * bytes. 0; 1 when the selection has no data file; 2 while the map is built in the background;
 * -1 with ov->error set. */
int tui_offsets_update(struct tui_app *app, struct tui_offsets_view *ov);

/* The background build (offsets_job.c). */
#define TUI_OFFSETS_ASYNC_EVENTS 1000000u
/* Start building the map of path over in (copied) for the current generation; ov->om's memory
 * goes to the job. 0, or -1 when out of memory. */
int tui_offsets_job_start(struct tui_app *app, struct tui_offsets_view *ov,
                          const struct iodfg_picture_input *in, uint32_t path);
/* 1 when the running job builds path for generation gen (+ 1). */
int tui_offsets_job_busy(const struct tui_offsets_view *ov, uint64_t gen, uint32_t path);
/* Install a finished job's map when it is still current (else drop it). 1 when a job ended. */
int tui_offsets_job_poll(struct tui_app *app, struct tui_offsets_view *ov);
/* The file the running job maps (UINT32_MAX when none). */
uint32_t tui_offsets_job_path(const struct tui_offsets_view *ov);
/* Wait for a running job and free it. */
void tui_offsets_job_stop(struct tui_offsets_view *ov);

/* One cell of the grid: the marks of the points whose start and offset fall in it. */
enum tui_offsets_flags {
    TUI_OM_WRITE = 1,
    TUI_OM_READ = 2,
    TUI_OM_KNOWN = 4,
    TUI_OM_INFERRED = 8,
    TUI_OM_OVERLAP = 16, /* a write of bytes that another case writes too */
    TUI_OM_CURSOR = 32,  /* a mark of the cursor's case */
    TUI_OM_CASES = 64    /* marks of two cases or more */
};
struct tui_offsets_cell {
    uint32_t row;  /* the case of its first mark (om->cases), UINT32_MAX when empty */
    uint8_t flags; /* enum tui_offsets_flags */
};
/* The grid of ncols x nrows cells over the time window [from, to) and offsets [0, nrows *
 * row_bytes): each point at its start and offset marks one cell (points outside are left out
 * and counted in *outside). cursor: the case row flagged TUI_OM_CURSOR. */
void tui_offsets_grid(const struct iodfg_offsetmap *om, int64_t from, int64_t to, int ncols,
                      int nrows, int64_t row_bytes, uint32_t cursor, struct tui_offsets_cell *cells,
                      uint64_t *outside);
/* The bytes of one grid row for an extent over at most nrows rows (a power of two). */
int64_t tui_offsets_row_bytes(int64_t extent, int nrows);
/* The symbol of case row r ("0".."9", "a".."z", "A".."Z", then again) and its style. */
char tui_offsets_case_symbol(uint32_t r);
int tui_offsets_case_style(uint32_t r);
/* A cell's glyph (an ASCII character) and style, by case or by read or write. */
char tui_offsets_cell_char(const struct tui_offsets_cell *c, int by_rw);
int tui_offsets_cell_style(const struct tui_offsets_cell *c, int by_rw);

/* The page and the detail line (offsets_page.c). */
void tui_offsets_page(struct tui_app *app, struct tui_offsets_view *ov, int width, int height,
                      struct tui_page *pg);
void tui_offsets_detail(struct tui_app *app, struct tui_offsets_view *ov, char *buf, size_t size);

#endif
