/* SPDX-License-Identifier: MIT */
/* JSON values and the writer that puts them together (json.h). */
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

/* ---- the writer ---- */

void iodfg_json_init(struct iodfg_json *j, struct iodfg_buf *b)
{
    memset(j, 0, sizeof(*j));
    j->b = b;
    j->comma = ",";
    j->colon = ":";
}

void iodfg_json_spaced(struct iodfg_json *j)
{
    j->comma = ", ";
    j->colon = ": ";
}

/* Before a value or a key: the comma that separates it from the previous one, then the layout
 * asked for (a bare comma before a layout: its whitespace follows). */
static void next(struct iodfg_json *j)
{
    uint32_t bit = 1u << j->depth;
    if (!j->keyed && j->depth && (j->filled & bit)) {
        const char *c = j->layout ? "," : j->comma;
        iodfg_buf_add(j->b, c, strlen(c));
    }
    j->keyed = 0;
    j->filled |= bit;
    if (j->layout) {
        iodfg_buf_add(j->b, j->layout, strlen(j->layout));
        j->layout = NULL;
    }
}

static void open(struct iodfg_json *j, char c)
{
    if (j->depth + 1 >= IODFG_JSON_DEPTH) {
        return;
    }
    next(j);
    iodfg_buf_add(j->b, &c, 1);
    j->depth++;
    uint32_t bit = 1u << j->depth;
    j->filled &= ~bit;
    j->arrays = c == '[' ? j->arrays | bit : j->arrays & ~bit;
}

void iodfg_json_object(struct iodfg_json *j)
{
    open(j, '{');
}

void iodfg_json_array(struct iodfg_json *j)
{
    open(j, '[');
}

void iodfg_json_end(struct iodfg_json *j)
{
    if (!j->depth) {
        return;
    }
    if (j->layout) {
        iodfg_buf_add(j->b, j->layout, strlen(j->layout));
        j->layout = NULL;
    }
    iodfg_buf_add(j->b, j->arrays & (1u << j->depth) ? "]" : "}", 1);
    j->depth--;
    j->keyed = 0;
}

void iodfg_json_key(struct iodfg_json *j, const char *key)
{
    next(j);
    iodfg_json_cstr(j->b, key);
    iodfg_buf_add(j->b, j->colon, strlen(j->colon));
    j->keyed = 1;
}

void iodfg_json_layout(struct iodfg_json *j, const char *text)
{
    j->layout = text;
}

void iodfg_json_string(struct iodfg_json *j, const char *s, size_t len)
{
    next(j);
    iodfg_json_str(j->b, s, len);
}

void iodfg_json_text(struct iodfg_json *j, const char *s)
{
    iodfg_json_string(j, s, strlen(s));
}

void iodfg_json_double(struct iodfg_json *j, double v)
{
    next(j);
    iodfg_json_num(j->b, v);
}

void iodfg_json_fixed(struct iodfg_json *j, double v, int digits)
{
    next(j);
    if (isfinite(v)) {
        iodfg_buf_addf(j->b, "%.*f", digits, v);
    } else {
        iodfg_buf_add(j->b, "null", 4);
    }
}

void iodfg_json_i64(struct iodfg_json *j, int64_t v)
{
    next(j);
    iodfg_buf_addf(j->b, "%lld", (long long)v);
}

void iodfg_json_u64(struct iodfg_json *j, uint64_t v)
{
    next(j);
    iodfg_buf_addf(j->b, "%llu", (unsigned long long)v);
}

void iodfg_json_known(struct iodfg_json *j, int64_t v)
{
    if (v == IODFG_UNKNOWN) {
        iodfg_json_null(j);
    } else {
        iodfg_json_i64(j, v);
    }
}

void iodfg_json_bool(struct iodfg_json *j, int v)
{
    next(j);
    iodfg_buf_addf(j->b, "%s", v ? "true" : "false");
}

void iodfg_json_null(struct iodfg_json *j)
{
    next(j);
    iodfg_buf_add(j->b, "null", 4);
}

void iodfg_json_put_text(struct iodfg_json *j, const char *key, const char *s)
{
    iodfg_json_key(j, key);
    iodfg_json_text(j, s);
}

void iodfg_json_put_double(struct iodfg_json *j, const char *key, double v)
{
    iodfg_json_key(j, key);
    iodfg_json_double(j, v);
}

void iodfg_json_put_i64(struct iodfg_json *j, const char *key, int64_t v)
{
    iodfg_json_key(j, key);
    iodfg_json_i64(j, v);
}

void iodfg_json_put_u64(struct iodfg_json *j, const char *key, uint64_t v)
{
    iodfg_json_key(j, key);
    iodfg_json_u64(j, v);
}

void iodfg_json_put_known(struct iodfg_json *j, const char *key, int64_t v)
{
    iodfg_json_key(j, key);
    iodfg_json_known(j, v);
}
