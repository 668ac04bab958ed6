/* SPDX-License-Identifier: MIT */
/* JSON into a buffer, for every JSON the program writes (reports, exports, insights,
 * Perfetto): a writer that nests objects and arrays and puts the commas and colons itself, and
 * the single values it is made of. Strings are quoted and escaped by the one sanitiser
 * (iodfg_sanitize_json), numbers are exact (%.17g round-trips a double) and null when not
 * finite or unknown. */
#ifndef IODFG_JSON_H
#define IODFG_JSON_H

#include <stddef.h>
#include <stdint.h>

struct iodfg_buf;

/* ---- single values ---- */

/* "s" from len bytes of untrusted text. */
void iodfg_json_str(struct iodfg_buf *b, const char *s, size_t len);
/* "s" from a NUL-terminated string. */
void iodfg_json_cstr(struct iodfg_buf *b, const char *s);
/* A double, or null when it is not finite. */
void iodfg_json_num(struct iodfg_buf *b, double v);

/* ---- the writer ---- */

/* A document written front to back: a value opened by iodfg_json_object or iodfg_json_array
 * takes members (a key, then a value) or elements until iodfg_json_end. The writer puts the
 * commas between them; the layout between values (line breaks, indentation) is the caller's,
 * through iodfg_json_layout. Containers nest IODFG_JSON_DEPTH deep at most (deeper ones are a
 * programming error and write nothing). Out of memory is the buffer's (b->failed). */
#define IODFG_JSON_DEPTH 32
struct iodfg_json {
    struct iodfg_buf *b;
    unsigned depth;
    uint32_t filled; /* bit d: the container at depth d holds a value */
    uint32_t arrays; /* bit d: the container at depth d is an array */
    int keyed;       /* a key was written: its value needs no comma */
    const char *comma, *colon;
    const char *layout; /* iodfg_json_layout's text, written before the next value or end */
};
void iodfg_json_init(struct iodfg_json *j, struct iodfg_buf *b);
/* ", " and ": " between members and after keys instead of "," and ":". */
void iodfg_json_spaced(struct iodfg_json *j);
void iodfg_json_object(struct iodfg_json *j);
void iodfg_json_array(struct iodfg_json *j);
/* Close the innermost open object or array. */
void iodfg_json_end(struct iodfg_json *j);
/* The key of the next member (the program's own name; escaped all the same). */
void iodfg_json_key(struct iodfg_json *j, const char *key);
/* text (whitespace: a line break, indentation; a string that lives until it is written) before
 * the next value, after the bare comma that value needs, or before the next end. */
void iodfg_json_layout(struct iodfg_json *j, const char *text);

/* Values: untrusted text, a NUL-terminated string, a double (null when not finite), integers
 * (known: null when IODFG_UNKNOWN), true or false, null. */
void iodfg_json_string(struct iodfg_json *j, const char *s, size_t len);
void iodfg_json_text(struct iodfg_json *j, const char *s);
void iodfg_json_double(struct iodfg_json *j, double v);
/* A double with digits decimals ("%.*f"; seconds in microseconds), null when not finite. */
void iodfg_json_fixed(struct iodfg_json *j, double v, int digits);
void iodfg_json_i64(struct iodfg_json *j, int64_t v);
void iodfg_json_u64(struct iodfg_json *j, uint64_t v);
void iodfg_json_known(struct iodfg_json *j, int64_t v);
void iodfg_json_bool(struct iodfg_json *j, int v);
void iodfg_json_null(struct iodfg_json *j);

/* A key and its value, the usual member. */
void iodfg_json_put_text(struct iodfg_json *j, const char *key, const char *s);
void iodfg_json_put_double(struct iodfg_json *j, const char *key, double v);
void iodfg_json_put_i64(struct iodfg_json *j, const char *key, int64_t v);
void iodfg_json_put_u64(struct iodfg_json *j, const char *key, uint64_t v);
void iodfg_json_put_known(struct iodfg_json *j, const char *key, int64_t v);

#endif
