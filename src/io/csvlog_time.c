/* SPDX-License-Identifier: MIT */
/* Times in CSV event logs: ISO 8601 date-times and decimal seconds, exact to the nanosecond
 * with integer arithmetic (a double holds only about 0.2 us of an epoch time). */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "iodfg/csvlog.h"

// Read exactly n digits at s[*i]: 0 and *v, or -1.
static int digits(const char *s, size_t len, size_t *i, int n, int *v)
{
    *v = 0;
    for (int k = 0; k < n; k++, (*i)++) {
        if (*i >= len || s[*i] < '0' || s[*i] > '9') {
            return -1;
        }
        *v = *v * 10 + (s[*i] - '0');
    }
    return 0;
}

static int expect(const char *s, size_t len, size_t *i, char c)
{
    if (*i < len && s[*i] == c) {
        (*i)++;
        return 0;
    }
    return -1;
}

// Days since 1970-01-01 of a proleptic Gregorian date (Hinnant's days_from_civil).
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = (unsigned)(y - era * 400);
    unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (int64_t)doe - 719468;
}

static int days_in_month(int y, int m)
{
    static const int dm[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return m == 2 ? 28 + leap : dm[m - 1];
}

// Fraction digits after a '.' (or ','), as nanoseconds; digits past the 9th are dropped.
static int fraction(const char *s, size_t len, size_t *i, int64_t *ns)
{
    *ns = 0;
    int n = 0;
    while (*i < len && s[*i] >= '0' && s[*i] <= '9') {
        if (n < 9) {
            *ns = *ns * 10 + (s[*i] - '0');
            n++;
        }
        (*i)++;
    }
    if (n == 0) {
        return -1;
    }
    for (; n < 9; n++) {
        *ns *= 10;
    }
    return 0;
}

// "Z", "+HH:MM", "+HHMM", "+HH" or nothing (UTC): the offset east of UTC in seconds.
static int zone(const char *s, size_t len, size_t *i, int *offset_s)
{
    *offset_s = 0;
    if (*i == len) {
        return 0;
    }
    if (s[*i] == 'Z' || s[*i] == 'z') {
        (*i)++;
        return 0;
    }
    if (s[*i] != '+' && s[*i] != '-') {
        return -1;
    }
    int sign = s[(*i)++] == '-' ? -1 : 1, hh, mm = 0;
    if (digits(s, len, i, 2, &hh)) {
        return -1;
    }
    if (*i < len) {
        expect(s, len, i, ':');
        if (digits(s, len, i, 2, &mm)) {
            return -1;
        }
    }
    if (hh > 23 || mm > 59) {
        return -1;
    }
    *offset_s = sign * (hh * 3600 + mm * 60);
    return 0;
}

int iodfg_csv_parse_iso(const char *s, size_t len, int64_t *ns)
{
    size_t i = 0;
    int y, mo, d, h, mi, sec;
    if (digits(s, len, &i, 4, &y) || expect(s, len, &i, '-') || digits(s, len, &i, 2, &mo) ||
        expect(s, len, &i, '-') || digits(s, len, &i, 2, &d)) {
        return -1;
    }
    if (i >= len || (s[i] != 'T' && s[i] != 't' && s[i] != ' ')) {
        return -1;
    }
    i++;
    if (digits(s, len, &i, 2, &h) || expect(s, len, &i, ':') || digits(s, len, &i, 2, &mi) ||
        expect(s, len, &i, ':') || digits(s, len, &i, 2, &sec)) {
        return -1;
    }
    if (mo < 1 || mo > 12 || d < 1 || d > days_in_month(y, mo) || h > 23 || mi > 59 || sec > 60) {
        return -1;
    }
    int64_t frac = 0;
    if (i < len && (s[i] == '.' || s[i] == ',')) {
        i++;
        if (fraction(s, len, &i, &frac)) {
            return -1;
        }
    }
    int offset_s;
    if (zone(s, len, &i, &offset_s) || i != len) {
        return -1;
    }
    int64_t t =
        days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400 + h * 3600 + mi * 60 + sec - offset_s;
    // int64 nanoseconds reach from 1677 to 2262 only
    if (t <= INT64_MIN / 1000000000LL || t >= INT64_MAX / 1000000000LL) {
        return -1;
    }
    *ns = t * 1000000000LL + frac;
    return 0;
}

int iodfg_csv_parse_seconds(const char *s, size_t len, int64_t *ns)
{
    size_t i = 0;
    int neg = 0;
    if (i < len && (s[i] == '+' || s[i] == '-')) {
        neg = s[i++] == '-';
    }
    uint64_t m = 0; // the significant digits kept
    int scale = 0;  // value = m * 10^scale seconds
    int ndig = 0, point = 0;
    for (; i < len; i++) {
        char c = s[i];
        if (c == '.' && !point) {
            point = 1;
        } else if (c >= '0' && c <= '9') {
            ndig++;
            if (m < UINT64_MAX / 10 - 9) {
                m = m * 10 + (uint64_t)(c - '0');
                scale -= point;
            } else if (!point) {
                scale++; // digits beyond what m holds: a larger number, not a longer fraction
            }
        } else {
            break;
        }
    }
    if (!ndig) {
        return -1;
    }
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        int eneg = 0, e = 0, edig = 0;
        if (i < len && (s[i] == '+' || s[i] == '-')) {
            eneg = s[i++] == '-';
        }
        for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, edig++) {
            e = e < 1000 ? e * 10 + (s[i] - '0') : e;
        }
        if (!edig) {
            return -1;
        }
        scale += eneg ? -e : e;
    }
    if (i != len) {
        return -1;
    }
    scale += 9; // to nanoseconds
    for (; scale > 0; scale--) {
        if (m > (uint64_t)INT64_MAX / 10) {
            return -1;
        }
        m *= 10;
    }
    for (; scale < 0 && m; scale++) {
        m /= 10; // sub-nanosecond digits are dropped
    }
    if (m > (uint64_t)INT64_MAX) {
        return -1;
    }
    *ns = neg ? -(int64_t)m : (int64_t)m;
    return 0;
}
