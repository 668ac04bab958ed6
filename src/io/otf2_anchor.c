/* SPDX-License-Identifier: MIT */
/* Recognising OTF2 anchor files; the reader itself is otf2_read.c (built with libotf2 only),
 * and without libotf2 its stand-ins here name what is missing. */
#include "config.h"

#include <string.h>

#include "iodfg/error.h"
#include "iodfg/otf2.h"

#include "otf2_guard.h"

int iodfg_otf2_is_anchor(const char *path)
{
    size_t n = strlen(path);
    return n > 5 && strcmp(path + n - 5, ".otf2") == 0;
}

#ifndef HAVE_OTF2
int iodfg_otf2_guard(const char *path, struct iodfg_error *err)
{
    (void)path;
    (void)err;
    return 0;
}

struct iodfg_eventlog *iodfg_otf2_read_unguarded(const char *path, unsigned columns,
                                                 struct iodfg_strace_result *res,
                                                 struct iodfg_error *err)
{
    (void)columns;
    (void)res;
    iodfg_error_set(err, IODFG_E_ARG,
                    "is an OTF2 trace, but this iodfg was built without OTF2 support "
                    "(install libotf2-trace-dev and configure again)");
    iodfg_error_at(err, path, 0, 0);
    return NULL;
}

struct iodfg_eventlog *iodfg_otf2_read(const char *path, unsigned columns,
                                       struct iodfg_strace_result *res, struct iodfg_error *err)
{
    return iodfg_otf2_read_unguarded(path, columns, res, err);
}
#endif
