/* SPDX-License-Identifier: MIT */
/* Human formatting of numbers with units, right-aligned in fixed widths. */
#include "config.h"

#include "iodfg/format.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

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

/* ---- times on a clock ---------------------------------------------------------------------- */

/* The fraction of a second in ns (0..999999999) with digits digits, "" for none. */
static void fraction(char *out, size_t size, int64_t frac_ns, int digits)
{
    if (digits <= 0) {
        out[0] = '\0';
        return;
    }
    char all[16];
    snprintf(all, sizeof(all), "%09lld", (long long)frac_ns);
    snprintf(out, size, ".%.*s", digits > 9 ? 9 : digits, all);
}

char *iodfg_format_clock(char *out, size_t size, int clock, int64_t ns, int digits)
{
    if (ns == IODFG_UNKNOWN) {
        snprintf(out, size, "-");
        return out;
    }
    // floor division, so that a time before the origin still reads forwards
    int64_t sec = ns / 1000000000LL, frac_ns = ns % 1000000000LL;
    if (frac_ns < 0) {
        frac_ns += 1000000000LL;
        sec--;
    }
    char f[16];
    fraction(f, sizeof(f), frac_ns, digits);
    if (clock == IODFG_CLOCK_EPOCH) {
        time_t t = (time_t)sec;
        struct tm tm;
        if (!gmtime_r(&t, &tm)) {
            snprintf(out, size, "@%lld%s", (long long)sec, f);
            return out;
        }
        snprintf(out, size, "%04d-%02d-%02d %02d:%02d:%02d%s UTC", tm.tm_year + 1900, tm.tm_mon + 1,
                 tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, f);
    } else if (clock == IODFG_CLOCK_TIME_OF_DAY && sec >= 0) {
        int64_t day = sec / 86400, s = sec % 86400;
        char d[32] = "";
        if (day) {
            snprintf(d, sizeof(d), "+%lldd ", (long long)day);
        }
        snprintf(out, size, "%s%02lld:%02lld:%02lld%s", d, (long long)(s / 3600),
                 (long long)(s / 60 % 60), (long long)(s % 60), f);
    } else { // a signed offset: "+1.5 s", "-0.25 s"
        uint64_t a = ns < 0 ? 0 - (uint64_t)ns : (uint64_t)ns;
        fraction(f, sizeof(f), (int64_t)(a % 1000000000u), digits);
        snprintf(out, size, "%c%llu%s s", ns < 0 ? '-' : '+', (unsigned long long)(a / 1000000000u),
                 f);
    }
    return out;
}
