/* SPDX-License-Identifier: MIT */
/* Shared by the libFuzzer targets (fuzz_util.h). */
#include "config.h"

#include "fuzz_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iodfg/error.h"

const char *fuzz_dir(void)
{
    static char dir[4096];
    if (!dir[0]) {
        const char *tmp = getenv("TMPDIR");
        snprintf(dir, sizeof(dir), "%s/iodfg-fuzz.XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(dir)) {
            __builtin_trap();
        }
    }
    return dir;
}

const char *fuzz_path(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s/%s", fuzz_dir(), name);
    return buf;
}

void fuzz_write(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f || (n && fwrite(data, 1, n, f) != n) || fclose(f) != 0) {
        __builtin_trap();
    }
}

void *fuzz_read(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f || fseek(f, 0, SEEK_END) != 0) {
        __builtin_trap();
    }
    long len = ftell(f);
    char *buf = malloc((size_t)len + 1);
    if (len < 0 || !buf || fseek(f, 0, SEEK_SET) != 0 ||
        fread(buf, 1, (size_t)len, f) != (size_t)len) {
        __builtin_trap();
    }
    fclose(f);
    *n = (size_t)len;
    return buf;
}

void fuzz_check_error(const struct iodfg_error *err, int needs_line)
{
    if (err->code == IODFG_E_NOMEM) {
        return;
    }
    if (err->code == IODFG_OK || !err->msg[0] || (needs_line && err->line == 0)) {
        __builtin_trap(); // an error must say what and where
    }
}

const char *fuzz_data(const char *rel, char *buf, size_t size)
{
    const char *top = getenv("IODFG_TEST_DATA");
    snprintf(buf, size, "%s/%s", top && *top ? top : IODFG_FUZZ_DATA, rel);
    return buf;
}
