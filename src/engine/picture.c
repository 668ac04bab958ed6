/* SPDX-License-Identifier: MIT */
/* Axis ticks and labels shared by the pictures, and their meta as JSON. */
#include "config.h"

#include "iodfg/picture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "iodfg/buf.h"
#include "iodfg/json.h"
#include "iodfg/mapping.h"
#include "iodfg/session.h"

const char *iodfg_picture_focus_text(const struct iodfg_session *s)
{
    return iodfg_session_focus(s) == IODFG_FOCUS_APP
               ? "the application's I/O (runtime classes folded)"
               : "all activities";
}

void iodfg_picture_input_session(struct iodfg_picture_input *in, struct iodfg_selection *sel,
                                 const struct iodfg_session *s, const uint8_t *act_on)
{
    memset(in, 0, sizeof(*in));
    iodfg_session_selection(s, IODFG_GROUP_NONE, sel);
    in->log = iodfg_session_log(s);
    in->map = iodfg_session_mapping(s);
    in->sel = sel;
    in->act_on = act_on;
    in->group[0] = iodfg_session_group_mask(s, IODFG_GROUP_G);
    in->group[1] = iodfg_session_group_mask(s, IODFG_GROUP_R);
    if (!in->group[0] || !in->group[1]) {
        in->group[0] = in->group[1] = NULL;
    }
    in->tl = iodfg_session_timeline(s);
}

int iodfg_picture_cases(const struct iodfg_picture_input *in, uint8_t *band, uint32_t *nbands,
                        enum iodfg_clock *clock, uint32_t *clock_dropped, uint32_t *outside_groups)
{
    uint32_t nc = iodfg_eventlog_case_count(in->log);
    uint8_t *on = malloc((size_t)nc + 1);
    if (!on) {
        return -1;
    }
    *nbands = in->group[0] && in->group[1] ? 2 : 1;
    *outside_groups = 0;
    for (uint32_t c = 0; c < nc; c++) {
        uint8_t b = IODFG_PICTURE_OFF;
        if (!in->sel->case_on || in->sel->case_on[c]) {
            b = *nbands == 1 ? 0 : in->group[0][c] ? 0 : in->group[1][c] ? 1 : IODFG_PICTURE_OFF;
            *outside_groups += b == IODFG_PICTURE_OFF;
        }
        band[c] = b;
        on[c] = b != IODFG_PICTURE_OFF;
    }
    uint32_t n[IODFG_CLOCK__N];
    iodfg_eventlog_clocks(in->log, on, n);
    *clock = iodfg_clock_majority(n);
    *clock_dropped = iodfg_eventlog_keep_clock(in->log, on, *clock);
    for (uint32_t c = 0; c < nc; c++) {
        band[c] = on[c] ? band[c] : IODFG_PICTURE_OFF;
    }
    free(on);
    return 0;
}

int64_t iodfg_picture_step(int64_t span, int max_ticks)
{
    static const int64_t mult[] = {1, 2, 5};
    if (max_ticks < 1) {
        max_ticks = 1;
    }
    for (int64_t p = 1;; p *= 10) {
        for (int i = 0; i < 3; i++) {
            int64_t step = p * mult[i];
            if (span / step < max_ticks || p > INT64_MAX / 100) {
                return step;
            }
        }
    }
}

int64_t iodfg_picture_step_pow2(int64_t span, int max_ticks)
{
    if (max_ticks < 1) {
        max_ticks = 1;
    }
    int64_t step = 1;
    while (span / step >= max_ticks && step < ((int64_t)1 << 61)) {
        step *= 2;
    }
    return step;
}

int iodfg_picture_is_relative(const struct iodfg_picture_meta *meta, enum iodfg_clock clock)
{
    return (meta && meta->relative) ||
           (clock != IODFG_CLOCK_TIME_OF_DAY && clock != IODFG_CLOCK_EPOCH);
}

/* Decimal places that tell ticks step_ns apart (0 to 9). */
static int decimals(int64_t step_ns)
{
    int d = 0;
    for (int64_t unit = 1000000000; d < 9 && step_ns % unit != 0; unit /= 10) {
        d++;
    }
    return d;
}

/* "d" digits of the fraction of ns within its second (ns >= 0). */
static void frac_text(char *out, size_t size, int64_t ns, int d)
{
    int64_t f = ns % 1000000000;
    for (int i = d; i < 9; i++) {
        f /= 10;
    }
    if (d) {
        snprintf(out, size, ".%0*lld", d, (long long)f);
    } else {
        out[0] = '\0';
    }
}

char *iodfg_picture_time_label(char *out, size_t size, int64_t t, int64_t step_ns,
                               enum iodfg_clock clock, const struct iodfg_picture_meta *meta)
{
    int d = decimals(step_ns > 0 ? step_ns : 1);
    char frac[16];
    if (iodfg_picture_is_relative(meta, clock)) {
        int64_t r = t - (meta ? meta->origin_ns : 0);
        int neg = r < 0;
        r = neg ? -r : r;
        frac_text(frac, sizeof(frac), r, d);
        snprintf(out, size, "%s%lld%s", neg ? "-" : "", (long long)(r / 1000000000), frac);
        return out;
    }
    int64_t sec = t / 1000000000;
    frac_text(frac, sizeof(frac), t < 0 ? 0 : t, d);
    int64_t day = sec / 86400, s = sec % 86400;
    snprintf(out, size, "%s%02lld:%02lld:%02lld%s",
             clock == IODFG_CLOCK_TIME_OF_DAY && day ? "+1d " : "", (long long)(s / 3600),
             (long long)(s / 60 % 60), (long long)(s % 60), frac);
    return out;
}

char *iodfg_picture_time_title(char *out, size_t size, int64_t t, enum iodfg_clock clock,
                               const struct iodfg_picture_meta *meta)
{
    if (iodfg_picture_is_relative(meta, clock)) {
        snprintf(out, size, "time (s from the log's start)");
    } else if (clock == IODFG_CLOCK_EPOCH) {
        time_t sec = (time_t)(t / 1000000000);
        struct tm tm;
        char day[32] = "";
        if (gmtime_r(&sec, &tm)) {
            strftime(day, sizeof(day), "%Y-%m-%d", &tm);
        }
        snprintf(out, size, "time (UTC, %s)", day);
    } else {
        snprintf(out, size, "time of day");
    }
    return out;
}

/* v >= 0 with three significant digits at most and no trailing zeros ("1.5", "768", "12.3"),
 * by integer arithmetic: a picture's text never takes the locale's decimal comma. */
static void sig(char *out, size_t size, double v, const char *unit)
{
    int d = v < 9.995 ? 2 : v < 99.95 ? 1 : 0;
    long long scale = d == 2 ? 100 : d == 1 ? 10 : 1;
    long long x = (long long)(v * (double)scale + 0.5), ip = x / scale, fp = x % scale;
    char frac[8] = "";
    if (fp) {
        snprintf(frac, sizeof(frac), ".%0*lld", d, fp);
        for (size_t n = strlen(frac); frac[n - 1] == '0'; n--) {
            frac[n - 1] = '\0';
        }
    }
    snprintf(out, size, "%lld%s%s%s", ip, frac, unit[0] ? " " : "", unit);
}

char *iodfg_picture_bytes_label(char *out, size_t size, int64_t bytes)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    int neg = bytes < 0;
    double v = neg ? -(double)bytes : (double)bytes;
    int u = 0;
    while (v >= 1024 && u < 6) {
        v /= 1024;
        u++;
    }
    if (bytes == 0) {
        snprintf(out, size, "0 B");
        return out;
    }
    char txt[48];
    sig(txt, sizeof(txt), v, units[u]);
    snprintf(out, size, "%s%s", neg ? "-" : "", txt);
    return out;
}

char *iodfg_picture_dur_label(char *out, size_t size, int64_t ns)
{
    static const char *const units[] = {"ns", "\xc2\xb5s", "ms", "s"};
    double v = (double)(ns < 0 ? -ns : ns);
    int u = 0;
    while (v >= 1000 && u < 3) {
        v /= 1000;
        u++;
    }
    if (ns == 0) {
        snprintf(out, size, "0");
        return out;
    }
    char txt[48];
    sig(txt, sizeof(txt), v, units[u]);
    snprintf(out, size, "%s%s", ns < 0 ? "-" : "", txt);
    return out;
}

char *iodfg_picture_count_label(char *out, size_t size, uint64_t n)
{
    char digits[32];
    int len = snprintf(digits, sizeof(digits), "%llu", (unsigned long long)n);
    size_t o = 0;
    for (int i = 0; i < len && o + 2 < size; i++) {
        if (i && (len - i) % 3 == 0) {
            out[o++] = ',';
        }
        out[o++] = digits[i];
    }
    out[o] = '\0';
    return out;
}

static void member_str(struct iodfg_json *j, const char *key, const char *v)
{
    iodfg_json_key(j, key);
    if (v && v[0]) {
        iodfg_json_text(j, v);
    } else {
        iodfg_json_null(j);
    }
}

void iodfg_picture_json_meta(struct iodfg_json *j, const struct iodfg_picture_meta *meta,
                             enum iodfg_clock clock)
{
    member_str(j, "log", meta ? meta->log_name : NULL);
    member_str(j, "filters", meta ? meta->filters : NULL);
    member_str(j, "focus", meta ? meta->focus : NULL);
    member_str(j, "groups", meta ? meta->groups : NULL);
    member_str(j, "rules", meta ? meta->rules : NULL);
    member_str(j, "clock", iodfg_clock_name(clock));
    iodfg_json_put_known(j, "origin_ns", meta ? meta->origin_ns : 0);
}
