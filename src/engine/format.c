/* SPDX-License-Identifier: MIT */
/* Human formatting of numbers with units, right-aligned in fixed widths. */
#include "config.h"

#include "iodfg/format.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "iodfg/eventlog.h"
#include "iodfg/glyph.h"

/* Right-align out (which holds text of `cols` terminal columns) in width columns. */
static char *pad(char *out, size_t size, int cols, int width)
{
    size_t len = strlen(out);
    if (width <= cols) {
        return out;
    }
    size_t add = (size_t)(width - cols);
    if (len + add + 1 > size) {
        add = size - 1 - len;
    }
    memmove(out + add, out, len + 1);
    memset(out, ' ', add);
    return out;
}

static int columns(const char *s)
{
    int n = 0;
    for (; *s; s++) {
        n += ((unsigned char)*s & 0xc0) != 0x80; // count UTF-8 lead bytes
    }
    return n;
}

/* v >= 1 in some unit: three significant digits. */
static void sig3(char *out, size_t size, double v, const char *unit)
{
    if (v < 9.995) {
        snprintf(out, size, "%.2f %s", v, unit);
    } else if (v < 99.95) {
        snprintf(out, size, "%.1f %s", v, unit);
    } else {
        snprintf(out, size, "%.0f %s", v, unit);
    }
}

static char *scaled(char *out, size_t size, double v, double step, const char *const *units,
                    int nunits, int width)
{
    int neg = v < 0;
    v = fabs(v);
    int u = 0;
    if (v < 999.5) {
        snprintf(out, size, "%s%.0f %s", neg ? "-" : "", v, units[0]);
        return pad(out, size, columns(out), width);
    }
    // move up while the value would need four digits (1000 KiB prints as 0.98 MiB)
    while (u + 1 < nunits && v >= 999.5) {
        v /= step;
        u++;
    }
    char tmp[IODFG_FORMAT_MIN];
    sig3(tmp, sizeof(tmp), v, units[u]);
    snprintf(out, size, "%s%s", neg ? "-" : "", tmp);
    return pad(out, size, columns(out), width);
}

char *iodfg_format_bytes(char *out, size_t size, int64_t bytes, int width)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    if (bytes == IODFG_UNKNOWN) {
        snprintf(out, size, "-");
        return pad(out, size, 1, width);
    }
    return scaled(out, size, (double)bytes, 1024.0, units, 6, width);
}

char *iodfg_format_rate(char *out, size_t size, double bps, int width)
{
    static const char *const units[] = {"B/s", "KiB/s", "MiB/s", "GiB/s", "TiB/s", "PiB/s"};
    if (isnan(bps)) {
        snprintf(out, size, "-");
        return pad(out, size, 1, width);
    }
    if (fabs(bps) < 1.0) {
        snprintf(out, size, "%s%.2f B/s", bps < 0 ? "-" : "", fabs(bps));
        return pad(out, size, columns(out), width);
    }
    return scaled(out, size, bps, 1024.0, units, 6, width);
}

char *iodfg_format_duration(char *out, size_t size, int64_t ns, int width)
{
    char micro[8];
    snprintf(micro, sizeof(micro), "%ss", iodfg_glyph(IODFG_GL_MICRO));
    const char *const units[] = {"ns", micro, "ms", "s"};
    if (ns == IODFG_UNKNOWN) {
        snprintf(out, size, "-");
        return pad(out, size, 1, width);
    }
    double v = fabs((double)ns);
    if (v >= 999.5e9) { // seconds have no bigger unit here: print them whole
        snprintf(out, size, "%s%.0f s", ns < 0 ? "-" : "", v / 1e9);
        return pad(out, size, columns(out), width);
    }
    return scaled(out, size, (double)ns, 1000.0, units, 4, width);
}

char *iodfg_format_percent(char *out, size_t size, double f, int width)
{
    if (isnan(f)) {
        snprintf(out, size, "-");
    } else if (f != 0.0 && fabs(f) < 0.0005) {
        snprintf(out, size, "%s<0.1%%", f < 0 ? "-" : "");
    } else if (fabs(f) >= 0.9995) {
        snprintf(out, size, "%.0f%%", f * 100.0);
    } else {
        snprintf(out, size, "%.1f%%", f * 100.0);
    }
    return pad(out, size, columns(out), width);
}

char *iodfg_format_count(char *out, size_t size, uint64_t n, int width)
{
    snprintf(out, size, "%llu", (unsigned long long)n);
    return pad(out, size, columns(out), width);
}
