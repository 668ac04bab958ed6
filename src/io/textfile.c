/* SPDX-License-Identifier: MIT */
/* Small text inputs read whole, on top of the mapped whole-file reader. */
#include "config.h"

#include "iodfg/textfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"

#include "readfile.h"

char *iodfg_textfile_read(const char *path, const char *what, size_t max, size_t *len,
                          struct iodfg_error *err)
{
    struct readfile rf;
    if (readfile_open(&rf, path, err)) {
        // readfile says "cannot open: reason"; name the kind of file after the verb
        char said[sizeof(err->msg)];
        snprintf(said, sizeof(said), "%s", err->msg);
        char *colon = strstr(said, ": ");
        if (err->code == IODFG_E_IO && colon) {
            *colon = '\0';
            iodfg_error_clear(err);
            iodfg_error_set(err, IODFG_E_IO, "%s the %s: %s", said, what, colon + 2);
            iodfg_error_at(err, path, 0, 0);
        }
        return NULL;
    }
    char *text = NULL;
    if (rf.len > max) {
        iodfg_error_set(err, IODFG_E_LIMIT, "%s is %zu bytes, over the limit of %zu", what, rf.len,
                        max);
        iodfg_error_at(err, path, 0, 0);
    } else if (!(text = malloc(rf.len + 1))) {
        iodfg_error_set(err, IODFG_E_NOMEM, NULL);
    } else {
        memcpy(text, rf.data, rf.len);
        text[rf.len] = '\0';
        *len = rf.len;
    }
    readfile_close(&rf);
    return text;
}
