/* SPDX-License-Identifier: MIT */
/* The `callsites` report: per activity, each call site (function, object, file:line) with its
 * calls, time, bytes and cases, for people (table), tools (TSV, JSON). */
#ifndef IODFG_REPORT_CALLSITES_H
#define IODFG_REPORT_CALLSITES_H

#include <stddef.h>
#include <stdint.h>

struct iodfg_buf;
struct iodfg_callsite_row;
struct iodfg_callsites;
struct iodfg_error;
struct iodfg_eventlog;
struct iodfg_mapping;

/* The source line of a frame (NULL file: unknown). */
struct iodfg_report_srcline {
    const char *file;
    int line;
};

struct iodfg_report_callsites {
    const struct iodfg_eventlog *log;       /* its stacks name the sites */
    const struct iodfg_mapping *map;        /* activity names */
    const struct iodfg_callsites *cs[2];    /* the selection, or G and R */
    int ngroups;                            /* 1, or 2 with groups */
    const struct iodfg_report_srcline *src; /* per frame id (frames + 1 entries), may be NULL */
    int libdw;                              /* lines can be looked up in this build */
};

/* The report into b. 0, or -1 with err (out of memory). */
int iodfg_report_table_callsites(struct iodfg_buf *b, const struct iodfg_report_callsites *r,
                                 struct iodfg_error *err);
int iodfg_report_tsv_callsites(struct iodfg_buf *b, const struct iodfg_report_callsites *r,
                               struct iodfg_error *err);
int iodfg_report_json_callsites(struct iodfg_buf *b, const struct iodfg_report_callsites *r,
                                struct iodfg_error *err);

/* The name of site (iodfg_callsite_row.site) of log, untrusted text: the function, or without one
 * "object+0xADDRESS"; "(no stack)" or "(no frame of the program)". Borrowed from the log or
 * static; buf[size] holds a made one. */
const char *iodfg_report_site_name(const struct iodfg_eventlog *log, uint32_t site, char *buf,
                                   size_t size);

/* The object (program or library path, untrusted) of site, "" for none. Borrowed from log. */
const char *iodfg_report_site_object(const struct iodfg_eventlog *log, uint32_t site);
/* The file:line cell of site as the table shows it: "callsites.c:22" (the file's base name, in
 * buf[size]), "?" (looked up, unknown), "file:line unknown (no libdw)", "-" (no site). */
const char *iodfg_report_site_line(const struct iodfg_report_callsites *r, uint32_t site,
                                   char *buf, size_t size);
/* The group cell of row of group g (0 G, 1 R): "G", "G only" (R has no such pair), "R", "R only";
 * "" without groups. */
const char *iodfg_report_site_group(const struct iodfg_report_callsites *r, int g,
                                    const struct iodfg_callsite_row *row);

#endif
