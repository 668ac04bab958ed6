/* SPDX-License-Identifier: MIT */
/* JSON values into a buffer, for every JSON the program writes (CLI tables, exports, insights,
 * Perfetto): strings quoted and escaped by the one sanitiser (iodfg_sanitize_json), numbers
 * exact (%.17g round-trips a double) and null when not finite or unknown. */
#ifndef IODFG_JSON_H
#define IODFG_JSON_H

#include <stddef.h>
#include <stdint.h>

struct iodfg_buf;

/* "s" from len bytes of untrusted text. */
void iodfg_json_str(struct iodfg_buf *b, const char *s, size_t len);
/* "s" from a NUL-terminated string. */
void iodfg_json_cstr(struct iodfg_buf *b, const char *s);
/* A double, or null when it is not finite. */
void iodfg_json_num(struct iodfg_buf *b, double v);
/* ,"key":value for an integer (null when IODFG_UNKNOWN) or a double (null when not finite):
 * the members after the first of an object. key is the program's own, never escaped. */
void iodfg_json_member_i64(struct iodfg_buf *b, const char *key, int64_t v);
void iodfg_json_member_num(struct iodfg_buf *b, const char *key, double v);

#endif
