/* SPDX-License-Identifier: MIT */
/* The times of a time filter's window (filter_priv.h): every form the program prints a time in
 * (iodfg_format_clock) read back, and written out in the form it was read in. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/eventlog.h"
#include "iodfg/format.h"

#include "filter_priv.h"

/* An unsigned decimal of digits digits exactly at s[*i] into *v. 0 or -1. */
static int fixed_digits(const char *s, size_t n, size_t *i, int digits, int64_t *v)
{
    *v = 0;
    for (int d = 0; d < digits; d++, (*i)++) {
        if (*i >= n || s[*i] < '0' || s[*i] > '9') {
            return -1;
        }
        *v = *v * 10 + (s[*i] - '0');
    }
    return 0;
}

/* A number with an optional fraction and unit ("1.5", "250ms", "2 m") into ns. 0 or -1. */
static int number_unit(const char *s, size_t n, int64_t *ns)
{
    static const struct {
        const char *unit;
        int64_t ns;
    } units[] = {{"", 1000000000}, {"s", 1000000000},  {"ms", 1000000},      {"us", 1000},
                 {"ns", 1},        {"m", 60000000000}, {"min", 60000000000}, {"h", 3600000000000}};
    size_t i = 0;
    uint64_t ip = 0, frac = 0, fscale = 1;
    while (i < n && s[i] >= '0' && s[i] <= '9' && ip < 100000000000ull) {
        ip = ip * 10 + (uint64_t)(s[i++] - '0');
    }
    int digits = i > 0;
    if (i < n && s[i] == '.') {
        i++;
        for (; i < n && s[i] >= '0' && s[i] <= '9'; i++, digits = 1) {
            if (fscale < 1000000000ull) {
                frac = frac * 10 + (uint64_t)(s[i] - '0'), fscale *= 10;
            }
        }
    }
    while (i < n && s[i] == ' ') { // "+1.5 s" as the program prints it
        i++;
    }
    if (!digits) {
        return -1;
    }
    for (size_t u = 0; u < sizeof(units) / sizeof(units[0]); u++) {
        if (strlen(units[u].unit) == n - i && memcmp(units[u].unit, s + i, n - i) == 0) {
            uint64_t unit = (uint64_t)units[u].ns;
            if (ip > (uint64_t)INT64_MAX / unit / 2) {
                return -1;
            }
            *ns = (int64_t)(ip * unit + frac * unit / fscale);
            return 0;
        }
    }
    return -1;
}

/* "HH:MM:SS[.f]" or "HH:MM" at s[*i] to the end: seconds since midnight in ns. 0 or -1. */
static int clock_of_day(const char *s, size_t n, size_t i, int64_t *ns)
{
    int64_t h = 0, m = 0;
    size_t h0 = i;
    while (i < n && s[i] >= '0' && s[i] <= '9' && i - h0 < 2) {
        h = h * 10 + (s[i++] - '0');
    }
    if (i == h0 || i >= n || s[i++] != ':' || fixed_digits(s, n, &i, 2, &m) || h > 23 || m > 59) {
        return -1;
    }
    int64_t sec = 0;
    if (i < n && s[i] == ':') {
        i++;
        if (i + 2 < n && s[i + 2] == '.') { // seconds with a fraction: the number parser
            if (number_unit(s + i, n - i, &sec) || sec >= 60000000000LL) {
                return -1;
            }
            *ns = (h * 3600 + m * 60) * 1000000000LL + sec;
            return 0;
        }
        if (fixed_digits(s, n, &i, 2, &sec) || sec > 59) {
            return -1;
        }
    }
    if (i != n) {
        return -1;
    }
    *ns = (h * 3600 + m * 60 + sec) * 1000000000LL;
    return 0;
}

/* Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil). */
static int64_t days_from_civil(int64_t y, int64_t m, int64_t d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

/* "YYYY-MM-DD HH:MM:SS[.f][ UTC]" (or a T between, Z at the end): ns since the epoch. */
static int epoch_date(const char *s, size_t n, int64_t *ns)
{
    size_t i = 0;
    int64_t y, mo, d;
    if (fixed_digits(s, n, &i, 4, &y) || i >= n || s[i++] != '-' ||
        fixed_digits(s, n, &i, 2, &mo) || i >= n || s[i++] != '-' ||
        fixed_digits(s, n, &i, 2, &d) || i >= n || (s[i] != ' ' && s[i] != 'T') || mo < 1 ||
        mo > 12 || d < 1 || d > 31) {
        return -1;
    }
    i++;
    if (n >= 4 && memcmp(s + n - 4, " UTC", 4) == 0) {
        n -= 4;
    } else if (n > i && s[n - 1] == 'Z') {
        n--;
    }
    int64_t day_ns;
    if (clock_of_day(s, n, i, &day_ns)) {
        return -1;
    }
    *ns = days_from_civil(y, mo, d) * 86400 * 1000000000LL + day_ns;
    return 0;
}

/* One time of a window (blanks around it allowed): nanoseconds and how it was written, or -1
 * on a syntax error. "1.5", "250ms", "2m" count from the log's start; "@1753944587.7538",
 * "+1.5 s", "07:38:50.69", "+1d 00:00:01" and "2025-07-31 06:49:47.75 UTC" are on its clock, in
 * the forms iodfg_format_clock prints. */
int filter_time_parse(const char *s, size_t n, int64_t *ns, int *form)
{
    while (n > 0 && s[0] == ' ') {
        s++, n--;
    }
    while (n > 0 && s[n - 1] == ' ') {
        n--;
    }
    if (n > 0 && s[0] == '@') {
        *form = TF_AT;
        return number_unit(s + 1, n - 1, ns);
    }
    if (n > 4 && s[4] == '-') {
        *form = TF_EPOCH;
        return epoch_date(s, n, ns);
    }
    size_t i = 0;
    int64_t days = 0;
    if (n > 0 && s[0] == '+') { // "+1d 07:38:50" or "+1.5 s"
        i = 1;
        while (i < n && s[i] >= '0' && s[i] <= '9' && days < 1000000) {
            days = days * 10 + (s[i++] - '0');
        }
        if (i > 1 && i + 1 < n && s[i] == 'd' && s[i + 1] == ' ') {
            *form = TF_TOD;
            if (clock_of_day(s, n, i + 2, ns)) {
                return -1;
            }
            *ns += days * 86400 * 1000000000LL;
            return 0;
        }
        *form = TF_REL;
        return number_unit(s + 1, n - 1, ns);
    }
    if (memchr(s, ':', n)) {
        *form = TF_TOD;
        return clock_of_day(s, n, 0, ns);
    }
    *form = TF_START;
    return number_unit(s, n, ns);
}

/* A time of a window in the form it was written, its fraction without trailing zeros. */
void filter_time_format(struct iodfg_buf *out, int64_t ns, int form)
{
    static const int clock_of[] = {[TF_START] = IODFG_CLOCK_RELATIVE,
                                   [TF_AT] = IODFG_CLOCK_NONE,
                                   [TF_REL] = IODFG_CLOCK_RELATIVE,
                                   [TF_TOD] = IODFG_CLOCK_TIME_OF_DAY,
                                   [TF_EPOCH] = IODFG_CLOCK_EPOCH};
    char t[96];
    iodfg_format_clock(t, sizeof(t), clock_of[form], ns, 9);
    char *dot = strchr(t, '.'), *end = dot ? dot + 1 : NULL;
    while (end && *end >= '0' && *end <= '9') {
        end++;
    }
    if (dot) { // drop the fraction's trailing zeros, and the point when nothing is left
        char *z = end;
        while (z > dot + 1 && z[-1] == '0') {
            z--;
        }
        memmove(z == dot + 1 ? dot : z, end, strlen(end) + 1);
    }
    size_t len = strlen(t);
    if (form == TF_START || form == TF_AT) { // "+1.5 s" -> "1.5", "@1.5"
        len -= 2;
        t[len] = '\0';
        iodfg_buf_addf(out, "%s%s", form == TF_AT ? "@" : "", t + 1);
    } else if (form == TF_REL) { // "+1.5 s" -> "+1.5s": no blank inside a window
        iodfg_buf_addf(out, "%.*ss", (int)len - 2, t);
    } else {
        iodfg_buf_add(out, t, len);
    }
}
