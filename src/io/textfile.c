/* SPDX-License-Identifier: MIT */
/* Small text inputs read whole, on top of the mapped whole-file reader. */
#include "config.h"

#include "iodfg/textfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"

#include "readfile.h"

/* readfile says "cannot open: reason" or "is N bytes, over the limit of M": name the kind of
 * file ("cannot open the rules file: reason", "the rules file is N bytes, ..."). */
static void name_kind(struct iodfg_error *err, const char *path, const char *what)
{
    if (!err || (err->code != IODFG_E_IO && err->code != IODFG_E_LIMIT)) {
        return;
    }
    char said[sizeof(err->msg)];
    snprintf(said, sizeof(said), "%s", err->msg);
    enum iodfg_status code = err->code;
    char *colon = strstr(said, ": ");
    iodfg_error_clear(err);
    if (code == IODFG_E_LIMIT) {
        iodfg_error_set(err, code, "the %s %s", what, said);
    } else if (colon) {
        *colon = '\0';
        iodfg_error_set(err, code, "%s the %s: %s", said, what, colon + 2);
    } else {
        iodfg_error_set(err, code, "%s", said);
    }
    iodfg_error_at(err, path, 0, 0);
}

char *iodfg_textfile_read(const char *path, const char *what, size_t max, size_t *len,
                          struct iodfg_error *err)
{
    struct readfile rf;
    if (readfile_open_max(&rf, path, max, err)) {
        name_kind(err, path, what);
        return NULL;
    }
    char *text = malloc(rf.len + 1);
    if (!text) {
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    } else {
        memcpy(text, rf.data, rf.len);
        text[rf.len] = '\0';
        *len = rf.len;
    }
    readfile_close(&rf);
    return text;
}
