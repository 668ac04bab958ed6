/* SPDX-License-Identifier: MIT */
/* Where an analysing command's report goes: -o FILE, written atomically (a temp file renamed, or
 * removed when a signal ends the process), or standard output. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iodfg/atomicfile.h"
#include "iodfg/casename.h"
#include "iodfg/error.h"
#include "iodfg/ingest.h"

#include "cli_analyze.h"
#include "cli_tempfile.h"

int cli_output_check(const struct cli_analyze_opts *o, const char *const *inputs, size_t n)
{
    if (o->output && !o->force && access(o->output, F_OK) == 0) {
        cli_errorf("%s exists; add --force to replace it", o->output);
        return CLI_FAIL;
    }
    if (!o->output || !o->force || access(o->output, F_OK) != 0) {
        return CLI_OK;
    }
    // the files given and every trace of a directory given, listed as the load will list them
    // (a listing that fails is the load's to report: nothing is written then)
    struct iodfg_error err;
    iodfg_error_clear(&err);
    struct iodfg_casename *names = iodfg_casename_new(o->ingest.name_pattern, &err);
    struct iodfg_input_list files;
    int rc = CLI_OK;
    if (names && iodfg_ingest_list(inputs, n, names, &files, &err) == 0) {
        if (iodfg_ingest_list_check_output(&files, o->output, &err)) {
            cli_error(&err);
            rc = CLI_FAIL;
        }
        iodfg_ingest_list_fini(&files);
    }
    iodfg_casename_free(names);
    return rc;
}

int cli_output_write(const struct cli_analyze_opts *o, const struct iodfg_buf *b)
{
    if (b->failed) {
        cli_errorf("out of memory");
        return CLI_FAIL;
    }
    if (!o->output) {
        if ((b->len && fwrite(b->data, 1, b->len, stdout) != b->len) || fflush(stdout)) {
            cli_errorf("writing to standard output failed: %s", strerror(errno));
            return CLI_FAIL;
        }
        return CLI_OK;
    }
    struct iodfg_error err;
    iodfg_error_clear(&err);
    if (iodfg_atomic_write(o->output, b->data ? b->data : "", b->len, o->force, &err)) {
        if (err.code == IODFG_E_EXISTS) {
            cli_errorf("%s exists; add --force to replace it", o->output);
        } else {
            cli_error(&err);
        }
        return CLI_FAIL;
    }
    return CLI_OK;
}

int cli_write_all(int fd, const char *data, size_t n)
{
    while (n) {
        ssize_t w = write(fd, data, n);
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w <= 0) {
            return -1;
        }
        data += w;
        n -= (size_t)w;
    }
    return 0;
}

int cli_output_stream(const struct cli_analyze_opts *o, int (*produce)(void *ctx, int fd),
                      void *ctx)
{
    if (!o->output) {
        fflush(stdout);
        return produce(ctx, STDOUT_FILENO);
    }
    struct iodfg_error err;
    iodfg_error_clear(&err);
    char *tmp = NULL;
    cli_temp_hold();
    int fd = iodfg_atomic_tmpfile(o->output, &tmp, &err);
    if (fd < 0) {
        cli_temp_forget();
        cli_error(&err);
        return CLI_FAIL;
    }
    cli_temp_guard(tmp);
    int rc = produce(ctx, fd);
    if (close(fd) && rc == CLI_OK) {
        cli_errorf("%s: %s", o->output, strerror(errno));
        rc = CLI_FAIL;
    }
    if (rc == CLI_OK && iodfg_atomic_publish(tmp, o->output, o->force, &err)) {
        if (err.code == IODFG_E_EXISTS) {
            cli_errorf("%s exists; add --force to replace it", o->output);
        } else {
            cli_error(&err);
        }
        rc = CLI_FAIL;
    }
    if (rc != CLI_OK) {
        unlink(tmp);
    }
    cli_temp_forget();
    free(tmp);
    return rc;
}
