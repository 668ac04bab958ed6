/* SPDX-License-Identifier: MIT */
/* JSON values into a buffer (json.h). */
#include "config.h"

#include "iodfg/json.h"

#include <math.h>
#include <string.h>

#include "iodfg/buf.h"
#include "iodfg/eventlog.h"
#include "iodfg/sanitize.h"

void iodfg_json_str(struct iodfg_buf *b, const char *s, size_t len)
{
    iodfg_buf_add(b, "\"", 1);
    iodfg_sanitize_json(b, s, len);
    iodfg_buf_add(b, "\"", 1);
}

void iodfg_json_cstr(struct iodfg_buf *b, const char *s)
{
    iodfg_json_str(b, s, strlen(s));
}

void iodfg_json_num(struct iodfg_buf *b, double v)
{
    if (isfinite(v)) {
        iodfg_buf_addf(b, "%.17g", v);
    } else {
        iodfg_buf_add(b, "null", 4);
    }
}

void iodfg_json_member_i64(struct iodfg_buf *b, const char *key, int64_t v)
{
    if (v == IODFG_UNKNOWN) {
        iodfg_buf_addf(b, ",\"%s\":null", key);
    } else {
        iodfg_buf_addf(b, ",\"%s\":%lld", key, (long long)v);
    }
}

void iodfg_json_member_num(struct iodfg_buf *b, const char *key, double v)
{
    iodfg_buf_addf(b, ",\"%s\":", key);
    iodfg_json_num(b, v);
}
