/* SPDX-License-Identifier: MIT */
/* Human formatting of bytes, durations, rates and fractions for tables and the TUI. */
#ifndef IODFG_FORMAT_H
#define IODFG_FORMAT_H

#include <stddef.h>
#include <stdint.h>

/* Each writes into out[size] (always NUL-terminated, size >= IODFG_FORMAT_MIN) and returns out.
 * Values take three significant digits ("1.50 KiB", "12.3 MiB", "123 GiB"; below 1024 B or
 * 1000 ns an integer: "999 B", "15 ns"); units are binary for bytes (B KiB MiB GiB TiB) and
 * decimal for time (ns µs ms s). An unknown value (IODFG_UNKNOWN, or NAN) prints "-". width > 0
 * right-aligns the text in that many terminal columns ("µ" is one column, two bytes); the text
 * is never cut: every value fits in IODFG_FORMAT_WIDTH columns. */
#define IODFG_FORMAT_MIN 32
#define IODFG_FORMAT_WIDTH 9

char *iodfg_format_bytes(char *out, size_t size, int64_t bytes, int width);
char *iodfg_format_duration(char *out, size_t size, int64_t ns, int width);
char *iodfg_format_rate(char *out, size_t size, double bytes_per_s, int width);
/* A fraction (0.123 -> "12.3%"; 1 -> "100%"; tiny but nonzero -> "<0.1%"). */
char *iodfg_format_percent(char *out, size_t size, double fraction, int width);
/* An integer count with thousands kept exact ("1234567"). */
char *iodfg_format_count(char *out, size_t size, uint64_t n, int width);

/* A time on its clock (enum iodfg_clock), the one form every output shows and the time filter
 * reads back: the time of day "07:38:50.699678" ("+1d 00:00:01.5" past midnight), the epoch
 * clock's "2025-07-31 06:49:47.753944 UTC", and on a relative clock or none "+1.500000 s";
 * digits (0..9) of the second's fraction. IODFG_UNKNOWN prints "-". */
char *iodfg_format_clock(char *out, size_t size, int clock, int64_t ns, int digits);

#endif
