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
    if (readfile_open_max(&rf, path, max, err)) {
        readfile_name_kind(err, path, what);
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
